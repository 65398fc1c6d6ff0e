import { PlatformEvent } from '@platform/events';
import { AssetEventsConsumer } from './asset-events.consumer';
import { UploadCompletion } from './upload-completion.service';

const event = (fields: Partial<PlatformEvent>): PlatformEvent =>
  ({ id: 'e1', type: 'video.asset.errored', occurred_at: '2026-01-01T00:00:00Z', object: { type: 'asset', id: 'a1' }, data: {}, ...fields }) as PlatformEvent;

describe('AssetEventsConsumer (group uploads)', () => {
  const assetErrored = jest.fn(async () => undefined);
  const consumer = new AssetEventsConsumer({ subscribe: jest.fn() } as never, { assetErrored } as unknown as UploadCompletion);
  beforeEach(() => assetErrored.mockClear());

  it('errors the upload of an errored asset with the asset’s error type and messages', async () => {
    await consumer.handle(
      event({ data: { upload_id: 'u1', errors: { type: 'invalid_input', messages: ['The input file could not be read as media.', 'More.'] } } }),
    );
    expect(assetErrored).toHaveBeenCalledWith('u1', 'a1', { type: 'invalid_input', message: 'The input file could not be read as media. More.' });
  });

  it('ignores assets not made from an upload, and other events', async () => {
    await consumer.handle(event({ data: { errors: { type: 'invalid_input', messages: [] } } }));
    await consumer.handle(event({ type: 'video.asset.ready', data: { upload_id: 'u1' } }));
    await consumer.handle(event({ object: { type: 'track', id: 't1' }, data: { upload_id: 'u1' } }));
    expect(assetErrored).not.toHaveBeenCalled();
  });

  it('gives a message when the asset gave none', async () => {
    await consumer.handle(event({ data: { upload_id: 'u1', errors: { type: 'invalid_input', messages: [] } } }));
    expect(assetErrored).toHaveBeenCalledWith('u1', 'a1', { type: 'invalid_input', message: 'The asset could not be made from the uploaded file' });
  });
});
