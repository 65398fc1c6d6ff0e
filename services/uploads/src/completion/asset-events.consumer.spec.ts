import { RegisteredEvent, Subscription, topicOf } from '@platform/events';
import { assetBody, testEvent } from '@platform/testing';
import { AssetBody } from '@platform/api-shapes';
import { AssetEventsConsumer } from './asset-events.consumer';
import { UploadCompletion } from './upload-completion.service';

const errored = (fields: Partial<AssetBody>, eventId = 'e1') =>
  testEvent(
    'video.asset.errored',
    assetBody('a1', { status: 'errored', progress: { state: 'errored', progress: -1 }, ...fields }),
    eventId,
  ) as RegisteredEvent<'video.asset.errored'>;

describe('AssetEventsConsumer (group uploads)', () => {
  const assetErrored = jest.fn(async () => undefined);
  const subscriptions: Subscription[] = [];
  const consumer = new AssetEventsConsumer(
    { subscribe: (s: Subscription) => Promise.resolve(void subscriptions.push(s)) } as never,
    {
      assetErrored,
    } as unknown as UploadCompletion,
  );
  beforeEach(() => assetErrored.mockClear());

  it('subscribes to video.asset.errored, validating each event against the registry', async () => {
    await consumer.onModuleInit();
    expect(subscriptions.map((s) => [s.group, s.topics])).toEqual([['uploads', [topicOf('video.asset.errored')]]]);
    const event = errored({ upload_id: 'u1' });
    expect(subscriptions[0].validate!(event, topicOf('video.asset.errored'))).toBeUndefined();
    expect(subscriptions[0].validate!({ ...event, data: { ...event.data, errors: 'no' } }, topicOf('video.asset.errored'))).toMatch(/errors: /);
  });

  it('errors the upload of an errored asset with the asset’s error type and messages, once per event id', async () => {
    await consumer.handle(errored({ upload_id: 'u1', errors: { type: 'invalid_input', messages: ['The input file could not be read as media.', 'More.'] } }));
    expect(assetErrored).toHaveBeenCalledWith({ consumer: 'uploads', eventId: 'e1' }, 'u1', 'a1', {
      type: 'invalid_input',
      message: 'The input file could not be read as media. More.',
    });
  });

  it('hands over assets not made from an upload too (recorded as handled, nothing changes)', async () => {
    await consumer.handle(errored({ errors: { type: 'invalid_input', messages: [] } }, 'e2'));
    expect(assetErrored).toHaveBeenCalledWith({ consumer: 'uploads', eventId: 'e2' }, undefined, 'a1', expect.anything());
  });

  it('gives a message when the asset gave none', async () => {
    await consumer.handle(errored({ upload_id: 'u1', errors: { type: 'invalid_input', messages: [] } }));
    expect(assetErrored).toHaveBeenCalledWith(expect.anything(), 'u1', 'a1', {
      type: 'invalid_input',
      message: 'The asset could not be made from the uploaded file',
    });
  });
});
