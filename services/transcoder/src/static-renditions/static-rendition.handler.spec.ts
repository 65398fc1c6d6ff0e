import { Logger } from '@nestjs/common';
import { EventData, EventType, RegisteredEvent } from '@platform/events';
import { assetBody, fakeProcessedEvents, testEvent } from '@platform/testing';
import { FakeMediaRunner, fakeMediaTools } from '../testing/fake-media-runner';
import { FakeStaticRenditionWork, planned } from '../testing/fake-static-rendition-work';
import { InMemoryStore } from '../testing/in-memory-store';
import { InMemoryTasks } from '../testing/in-memory-tasks';
import { TaskEntity } from '../tasks/task.entity';
import { TaskContext } from '../tasks/task-handler';
import { TaskTriggersConsumer } from '../tasks/task-triggers.consumer';
import { MasterHandler } from './master.handler';
import { MP4_SUPPORT_TARGET, StaticRenditionHandler, WAIT_SECONDS } from './static-rendition.handler';

const event = <T extends EventType>(type: T, data: EventData<T>) => testEvent(type, data) as RegisteredEvent;
const file = (id: string, assetId = 'a1') => ({ id, name: 'highest.mp4' as const, ext: 'mp4' as const, status: 'preparing' as const, asset_id: assetId });
const context = (target: string, kind = 'static_rendition'): TaskContext => ({
  taskId: 't',
  assetId: 'a1',
  kind,
  target,
  attempt: 1,
  signal: new AbortController().signal,
  workDir: '/nonexistent',
  checkpoint: () => Promise.resolve(),
  onChild: () => undefined,
});
const task = (target: string, kind = 'static_rendition') => ({ id: 't', assetId: 'a1', kind, target }) as TaskEntity;

describe('static rendition and master tasks', () => {
  beforeAll(() => Logger.overrideLogger(false));

  function setup() {
    const work = new FakeStaticRenditionWork();
    const store = new InMemoryStore();
    const media = fakeMediaTools(new FakeMediaRunner());
    const renditions = new StaticRenditionHandler(work, store, media);
    const master = new MasterHandler(work, store, media);
    const tasks = new InMemoryTasks();
    const worker = { nudge: jest.fn(), stop: jest.fn() };
    const consumer = new TaskTriggersConsumer({ subscribe: jest.fn() } as never, [renditions, master], tasks, fakeProcessedEvents(), worker);
    const open = () => [...tasks.rows.values()].filter((t) => t.status === 'queued').map((t) => `${t.kind}:${t.target}:${t.afterLadder}`);
    return { work, store, renditions, master, tasks, worker, consumer, open };
  }

  it('are queued after the ladder by their events; a new mp4_support or master request restarts its task, a deleted rendition stops its own', async () => {
    const { consumer, tasks, worker, open } = setup();
    expect(consumer.types.sort()).toEqual([
      'video.asset.deleted',
      'video.asset.master.preparing',
      'video.asset.static_rendition.created',
      'video.asset.static_rendition.deleted',
      'video.asset.static_renditions.preparing',
    ]);
    await consumer.handle(event('video.asset.static_renditions.preparing', assetBody('a1', { mp4_support: 'standard' })));
    await consumer.handle(event('video.asset.static_rendition.created', file('r1')));
    await consumer.handle(event('video.asset.master.preparing', assetBody('a1', { master_access: 'temporary', master: { status: 'preparing' } })));
    expect(open()).toEqual(['static_rendition:mp4_support:true', 'static_rendition:r1:true', 'master::true']);

    // running when asked again: stopped and queued again (the assets service says what is wanted now)
    const running = await tasks.claim('w/1', 30);
    expect(running?.target).toBe(MP4_SUPPORT_TARGET);
    await consumer.handle(event('video.asset.static_renditions.preparing', assetBody('a1', { mp4_support: 'capped-1080p' })));
    expect(worker.stop).toHaveBeenCalledWith([expect.objectContaining({ id: running!.id })]);
    expect(tasks.rows.get(running!.id)).toMatchObject({ status: 'queued', attempts: 0 });

    await consumer.handle(event('video.asset.static_rendition.deleted', file('r1')));
    expect(open()).toEqual(['static_rendition:mp4_support:true', 'master::true']);
  });

  it('wait while the asset is not ingested, end when nothing is asked for or the asset is gone', async () => {
    const { work, renditions, master } = setup();
    work.plans.set('a1/mp4_support', { action: 'wait', files: [], reason: 'the asset is not ingested yet' });
    expect(await renditions.run(context(MP4_SUPPORT_TARGET))).toEqual({ status: 'later', delaySeconds: WAIT_SECONDS, reason: 'the asset is not ingested yet' });
    work.plans.set('a1/r1', { action: 'none', files: [], reason: 'the rendition is skipped' });
    expect(await renditions.run(context('r1'))).toEqual({ status: 'cancelled', reason: 'the rendition is skipped' });
    expect(await renditions.run(context('r2'))).toEqual({ status: 'cancelled', reason: 'the asset was deleted' });
    work.masterPlans.set('a1', { action: 'wait', reason: 'the asset is not ingested yet' });
    expect(await master.run(context('', 'master'))).toMatchObject({ status: 'later' });
    expect(await master.run({ ...context('', 'master'), assetId: 'gone' })).toEqual({ status: 'cancelled', reason: 'the asset was deleted' });
    expect(work.records).toEqual([]);
  });

  it('give up by erroring the first file still to make (mp4_support’s set with it), or the master; nothing when nothing is left', async () => {
    const { work, renditions, master } = setup();
    work.plans.set('a1/mp4_support', { action: 'make', reason: '', files: [planned('medium.mp4', 540), planned('high.mp4', 720)] });
    await renditions.giveUp(task(MP4_SUPPORT_TARGET), 'ffmpeg exited with 1');
    await renditions.giveUp(task('r-deleted'), 'ffmpeg exited with 1');
    expect(work.records).toEqual([
      { asset_id: 'a1', target: 'mp4_support', name: 'medium.mp4', status: 'errored', width: 0, height: 0, bitrate: 0, error_message: 'ffmpeg exited with 1' },
    ]);
    work.masterPlans.set('a1', { action: 'make', reason: '' });
    await master.giveUp(task('', 'master'), 'no stored rendition to make the master of');
    work.masterPlans.set('a1', { action: 'none', reason: 'the master is ready' });
    await master.giveUp(task('', 'master'), 'late');
    expect(work.masterRecords).toEqual([{ asset_id: 'a1', status: 'errored', error_message: 'no stored rendition to make the master of' }]);
  });
});
