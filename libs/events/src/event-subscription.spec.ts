import { AssetBody } from '@platform/api-shapes';
import { eventually } from '@platform/testing';
import { collectInto } from './event-bus.contract';
import { DeliveryInfo, PlatformEvent } from './event-bus.port';
import { topicOf } from './event-registry';
import { RegisteredEvent, subscribeEvents } from './event-subscription';
import { InProcessBus } from './in-process-bus';
import { newEvent, toPlatformEvent } from './new-event';

const asset = (id: string, fields: Partial<AssetBody> = {}): AssetBody => ({
  id,
  created_at: '1700000000',
  status: 'errored',
  progress: { state: 'errored', progress: -1 },
  max_resolution_tier: '1080p',
  encoding_tier: 'smart',
  video_quality: 'plus',
  master_access: 'none',
  mp4_support: 'none',
  ingest_type: 'on_demand_direct_upload',
  ...fields,
});

describe('subscribeEvents', () => {
  it('hands the handler registered, valid events, typed; dead-letters an invalid one at once with the reason', async () => {
    const bus = new InProcessBus(3);
    const handled: Array<RegisteredEvent<'video.asset.errored'>> = [];
    let calls = 0;
    const dead: Array<[PlatformEvent, DeliveryInfo]> = [];
    await subscribeEvents(bus, {
      group: 'uploads-test',
      types: ['video.asset.errored'],
      handle: (event) => {
        calls++;
        const uploadId: string | undefined = event.data.upload_id; // typed by the registry
        if (uploadId) handled.push(event);
        return Promise.resolve();
      },
    });
    const topic = topicOf('video.asset.errored');
    await bus.subscribe({ group: 'dlq-reader', topics: [`${topic}.dlq`], handle: collectInto(dead, (e, i) => [e, i]) });
    await bus.start();

    const good = toPlatformEvent(newEvent('video.asset.errored', asset('a1', { upload_id: 'u1' })));
    const bad = { ...good, id: 'bad-1', data: { ...good.data, upload_id: 7 } };
    await bus.publish(topic, 'a1', bad);
    await bus.publish(topic, 'a1', good);
    await eventually(
      () => {
        expect(handled.map((e) => e.id)).toEqual([good.id]);
        expect(dead).toHaveLength(1);
      },
      { timeoutMs: 15_000 },
    );
    expect(calls).toBe(1);
    expect(dead[0][0]).toEqual(bad);
    expect(dead[0][1].deadLetter).toEqual({
      reason: 'invalid event: data does not match video.asset.errored.v1: upload_id: Invalid input: expected string, received number',
      group: 'uploads-test',
      topic,
    });
    await bus.close();
  });
});
