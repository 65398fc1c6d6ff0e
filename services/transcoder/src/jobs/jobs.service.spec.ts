import { ErrorCode } from '@platform/errors';
import { assetBody, fakeProcessedEvents, rejection, testEvent } from '@platform/testing';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { JobEntity } from './job.entity';
import { JobRepository } from './job.repository';
import { JobsService } from './jobs.service';
import { AssetEventsConsumer } from './asset-events.consumer';
import { EventBus, RegisteredEvent, Subscription, topicOf } from '@platform/events';
import { AssetBody } from '@platform/api-shapes';

function setup() {
  const repository = new InMemoryJobs();
  const processed = fakeProcessedEvents();
  const service = new JobsService(repository as unknown as JobRepository, processed);
  return { repository, service, processed };
}

const event = (type: 'video.asset.created' | 'video.asset.deleted', id: string, fields: Partial<AssetBody> = {}) =>
  testEvent(type, assetBody(id, fields), `evt-${type}-${id}`) as RegisteredEvent<typeof type>;

describe('JobsService', () => {
  it('queues one job per asset however often the event arrives, and tells listeners once', async () => {
    const { repository, service } = setup();
    const heard: string[] = [];
    service.onEnqueued((assetId) => heard.push(assetId));
    await service.enqueue('asset-1', 'e1');
    await service.enqueue('asset-1', 'e1'); // redelivered
    await service.enqueue('asset-1', 'e2'); // another event of the same asset
    expect([...repository.rows.values()].map((j) => [j.assetId, j.status, j.attempts])).toEqual([['asset-1', 'queued', 0]]);
    expect(heard).toEqual(['asset-1']);
  });

  it('handles an event once: a redelivered deletion does not cancel the job a later creation queued', async () => {
    const { repository, service, processed } = setup();
    await service.cancel('asset-1', 'deleted-1');
    repository.rows.clear(); // as if the asset's jobs were pruned since
    await service.cancel('asset-1', 'deleted-1');
    expect([...repository.rows.values()]).toEqual([]);
    expect([...processed.ids]).toEqual(['deleted-1']);
  });

  it('records nothing when the job change fails, so the redelivery tries again', async () => {
    const { repository, service, processed } = setup();
    jest.spyOn(repository, 'enqueue').mockRejectedValueOnce(new Error('database unavailable'));
    await expect(service.enqueue('asset-1', 'e1')).rejects.toThrow('database unavailable');
    expect(processed.ids.size).toBe(0);
    await service.enqueue('asset-1', 'e1');
    expect([...repository.rows.values()].map((j) => j.assetId)).toEqual(['asset-1']);
  });

  it('cancels an open job, or records a cancelled one when the deletion comes first', async () => {
    const { repository, service } = setup();
    const cancelled: JobEntity[] = [];
    service.onCancelled((job) => cancelled.push(job));
    await service.enqueue('asset-1', 'c1');
    await service.cancel('asset-1', 'd1');
    await service.cancel('asset-2', 'd2'); // deleted before its created event was handled
    await service.enqueue('asset-2', 'c2');
    expect([...repository.rows.values()].map((j) => [j.assetId, j.status])).toEqual([
      ['asset-1', 'cancelled'],
      ['asset-2', 'cancelled'],
    ]);
    expect(cancelled.map((j) => j.assetId)).toEqual(['asset-1', 'asset-2']);
  });

  it('leaves a finished job as it is when its asset is deleted', async () => {
    const { repository, service } = setup();
    repository.add({ id: 'j1', assetId: 'asset-1', status: 'done' });
    const cancelled: JobEntity[] = [];
    service.onCancelled((job) => cancelled.push(job));
    await service.cancel('asset-1', 'd1');
    expect(repository.rows.get('j1')!.status).toBe('done');
    expect(cancelled).toEqual([]);
  });

  it('gets a job by its id or by its asset id, with Unix-second times', async () => {
    const { repository, service } = setup();
    repository.add({
      id: 'job-1',
      assetId: 'asset-1',
      status: 'playable',
      phase: 'ladder',
      playable: true,
      attempts: 2,
      worker: 'host:42:abc',
      leaseExpiresAt: new Date(Date.UTC(2024, 0, 1, 0, 0, 30)),
      error: 'ffmpeg exited with status 1',
      createdAt: new Date(Date.UTC(2024, 0, 1)),
      updatedAt: new Date(Date.UTC(2024, 0, 1, 0, 0, 10, 900)),
    });
    const expected = {
      id: 'job-1',
      asset_id: 'asset-1',
      status: 'playable',
      phase: 'ladder',
      playable: true,
      attempts: 2,
      worker: 'host:42:abc',
      lease_expires_at: Date.UTC(2024, 0, 1, 0, 0, 30) / 1000,
      error: 'ffmpeg exited with status 1',
      created_at: Date.UTC(2024, 0, 1) / 1000,
      updated_at: Date.UTC(2024, 0, 1, 0, 0, 10) / 1000,
    };
    expect(await service.get('job-1')).toEqual(expected);
    expect(await service.get('asset-1')).toEqual(expected);
  });

  it('leaves unset fields out and answers NOT_FOUND for an unknown id', async () => {
    const { service } = setup();
    await service.enqueue('asset-9', 'c9');
    const job = await service.get('asset-9');
    expect(Object.keys(job).sort()).toEqual(['asset_id', 'attempts', 'created_at', 'id', 'phase', 'playable', 'status', 'updated_at']);
    const error = await rejection(service.get('nope'));
    expect(error.code).toBe(ErrorCode.NOT_FOUND);
    expect(error.messages).toEqual(['Job not found']);
  });

  it('lists newest first, paged, 25 by default and 100 at most', async () => {
    const { repository, service } = setup();
    for (let i = 0; i < 3; i++) repository.add({ id: `j${i}`, assetId: `a${i}` });
    expect((await service.list({ limit: 2, page: 1 })).items.map((j) => j.id)).toEqual(['j2', 'j1']);
    expect((await service.list({ limit: 2, page: 2 })).items.map((j) => j.id)).toEqual(['j0']);
    const list = jest.spyOn(repository, 'list');
    await service.list({ limit: 0, page: 0 });
    await service.list({ limit: 500, page: 3 });
    expect(list.mock.calls).toEqual([
      [25, 0],
      [100, 200],
    ]);
  });
});

describe('AssetEventsConsumer', () => {
  const subscriptions: Subscription[] = [];
  const bus = { subscribe: async (s: Subscription) => void subscriptions.push(s) } as unknown as EventBus;

  it('subscribes group transcoder to the created and deleted topics', async () => {
    const { service } = setup();
    await new AssetEventsConsumer(bus, service).onModuleInit();
    expect(subscriptions.map(({ group, topics }) => ({ group, topics }))).toEqual([
      { group: 'transcoder', topics: [topicOf('video.asset.created'), topicOf('video.asset.deleted')] },
    ]);
  });

  it('validates what it reads: an asset event of another shape or topic is refused before the handler', () => {
    const validate = subscriptions[0].validate!;
    const created = event('video.asset.created', 'a1');
    expect(validate(created, topicOf('video.asset.created'))).toBeUndefined();
    expect(validate({ ...created, data: { ...created.data, status: 'done' } }, topicOf('video.asset.created'))).toMatch(
      /^data does not match video\.asset\.created\.v1: status: /,
    );
    expect(validate(testEvent('video.asset.updated', assetBody('a1')), topicOf('video.asset.updated'))).toBe(
      'type video.asset.updated is not one this consumer reads',
    );
  });

  it('queues created on-demand assets, skips live recordings, cancels deleted ones, and records every event once', async () => {
    const { repository, service, processed } = setup();
    const consumer = new AssetEventsConsumer(bus, service);
    await consumer.handle(event('video.asset.created', 'a1', { ingest_type: 'on_demand_url' }));
    await consumer.handle(event('video.asset.created', 'a2', { ingest_type: 'live_rtmp', is_live: true }));
    await consumer.handle(event('video.asset.created', 'a3', { ingest_type: 'on_demand_direct_upload' }));
    await consumer.handle(event('video.asset.created', 'a4', { status: 'errored', progress: { state: 'errored', progress: -1 } }));
    await consumer.handle(event('video.asset.deleted', 'a3'));
    expect([...repository.rows.values()].map((j) => [j.assetId, j.status])).toEqual([
      ['a1', 'queued'],
      ['a3', 'cancelled'],
    ]);
    expect(processed.ids.size).toBe(5);
  });
});
