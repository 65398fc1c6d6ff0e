import { loadConfig } from '@platform/config';
import { ErrorCode } from '@platform/errors';
import { DestinationStream, LiveStreamLookup } from '@platform/grpc';
import { fakeUnitOfWork, rejection } from '@platform/testing';
import { SpaceRepository } from '../spaces/space.repository';
import { SpacesService } from '../spaces/spaces.service';
import { SpaceStates } from '../spaces/space-states';
import { InMemoryBroadcasts, InMemorySpaces } from '../testing/in-memory-spaces';
import { BroadcastEntity } from './broadcast.entity';
import { BroadcastRepository } from './broadcast.repository';
import { BroadcastStates } from './broadcast-states';
import { BroadcastsService } from './broadcasts.service';
import { CompositorJobs } from './compositor-jobs';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Compositor jobs as a launcher runs them: stop ends the job (its onEnded called) before it resolves; `crash` ends one by itself. */
class FakeCompositors implements CompositorJobs {
  readonly log: string[] = [];
  private readonly running = new Map<string, (reason: string, failed: boolean) => void>();
  async start(broadcast: BroadcastEntity, streamKey: string, onEnded: (reason: string, failed: boolean) => void): Promise<void> {
    this.log.push(`start ${broadcast.id} ${streamKey}`);
    this.running.set(broadcast.id, onEnded);
  }
  async stop(id: string): Promise<void> {
    this.crash(id, 'shut down', false);
  }
  isRunning(id: string): boolean {
    return this.running.has(id);
  }
  crash(id: string, reason = 'the page crashed', failed = true): void {
    const onEnded = this.running.get(id);
    this.running.delete(id);
    onEnded?.(reason, failed);
  }
}

/** The live service: streams by id; `complete` is recorded, and held until released when `holdCompletes`. */
class FakeLiveStreams {
  readonly log: string[] = [];
  holdCompletes = false;
  private readonly held: Array<() => void> = [];
  lookupGate: Promise<void> = Promise.resolve();
  async find(id: string): Promise<DestinationStream | undefined> {
    await this.lookupGate;
    return id.startsWith('ls') ? { status: 'idle', streamKey: `key-${id}` } : undefined;
  }
  async complete(id: string): Promise<void> {
    if (this.holdCompletes) await new Promise<void>((resolve) => this.held.push(resolve));
    this.log.push(`complete ${id}`);
  }
  releaseCompletes(): void {
    for (const release of this.held.splice(0)) release();
  }
}

function setup(env: NodeJS.ProcessEnv = {}) {
  const broadcastRows = new InMemoryBroadcasts();
  const spaceRows = new InMemorySpaces(broadcastRows);
  const { unitOfWork, events } = fakeUnitOfWork();
  const compositors = new FakeCompositors();
  const live = new FakeLiveStreams();
  const config = loadConfig(env);
  const broadcastRepo = broadcastRows as unknown as BroadcastRepository;
  const spaceRepo = spaceRows as unknown as SpaceRepository;
  const broadcasts = new BroadcastsService(
    broadcastRepo,
    spaceRepo,
    new BroadcastStates(broadcastRepo, unitOfWork),
    compositors,
    live as unknown as LiveStreamLookup,
    unitOfWork,
    config,
  );
  const spaceStates = new SpaceStates(spaceRepo, broadcastRepo, unitOfWork);
  const spaces = new SpacesService(spaceRepo, broadcastRepo, broadcasts, spaceStates, unitOfWork);
  const types = () => events.map((e) => `${e.type} ${e.data.id as string}`);
  return { broadcasts, spaces, spaceStates, broadcastRows, compositors, live, types };
}

async function spaceWithBroadcast(s: ReturnType<typeof setup>) {
  const space = await s.spaces.create({ passthrough: 'p', broadcasts: [{ live_stream_id: 'ls1' }] });
  return { spaceId: space.id, broadcastId: space.broadcasts[0].id, request: { space_id: space.id, broadcast_id: space.broadcasts[0].id } };
}

/** The DomainError a promise rejects with, as its code and messages (toEqual on two Errors would compare their messages only). */
async function refusal(promise: Promise<unknown>): Promise<{ code: ErrorCode; messages: string[] }> {
  const { code, messages } = await rejection(promise);
  return { code, messages };
}
/** A 409: the current state forbids the action. */
const conflict = (message: string) => ({ code: ErrorCode.PRECONDITION_FAILED, messages: [message] });
const invalid = (...messages: string[]) => ({ code: ErrorCode.INVALID_PARAMETERS, messages });

describe('BroadcastsService (spec 2.10, 3, 4.10)', () => {
  it('starts only while the space is active: 409 before, then the compositor launched with the stream key and the broadcast active', async () => {
    const s = setup();
    const { spaceId, broadcastId, request } = await spaceWithBroadcast(s);
    expect(await refusal(s.broadcasts.start(request))).toEqual(conflict('A broadcast can start only while its space is active; the space is idle'));
    expect(s.compositors.log).toEqual([]);
    await s.spaceStates.toActive(spaceId);
    await s.broadcasts.start(request);
    await s.broadcasts.start(request); // already active: nothing more
    expect(s.compositors.log).toEqual([`start ${broadcastId} key-ls1`]);
    expect((await s.broadcasts.get(request)).status).toBe('active');
    expect(s.types()).toContain(`video.space.broadcast.active ${broadcastId}`);
  });

  it('stop answers once the broadcast is idle and its live stream completed', async () => {
    const s = setup();
    const { spaceId, request } = await spaceWithBroadcast(s);
    await s.spaceStates.toActive(spaceId);
    await s.broadcasts.start(request);
    s.live.holdCompletes = true;
    let stopped = false;
    const stopping = s.broadcasts.stop(request).then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    s.live.releaseCompletes();
    await stopping;
    expect({ status: (await s.broadcasts.get(request)).status, completes: s.live.log }).toEqual({ status: 'idle', completes: ['complete ls1'] });
    await expect(s.broadcasts.delete(request)).resolves.toBeUndefined();
  });

  it('stops a start that raced the space going idle', async () => {
    const s = setup();
    const { spaceId, broadcastId, request } = await spaceWithBroadcast(s);
    await s.spaceStates.toActive(spaceId);
    let openLookup!: () => void;
    s.live.lookupGate = new Promise((resolve) => (openLookup = resolve));
    const starting = s.broadcasts.start(request);
    await tick();
    await s.spaceStates.toIdle(spaceId);
    const stoppingAll = s.broadcasts.stopAll(spaceId);
    openLookup();
    await Promise.all([starting, stoppingAll]);
    expect({ running: s.compositors.isRunning(broadcastId), status: (await s.broadcasts.get(request)).status, completes: s.live.log }).toEqual({
      running: false,
      status: 'idle',
      completes: ['complete ls1'],
    });
  });

  it('a compositor that died is idle with its stream completed before a new start launches another', async () => {
    const s = setup();
    const { spaceId, broadcastId, request } = await spaceWithBroadcast(s);
    await s.spaceStates.toActive(spaceId);
    await s.broadcasts.start(request);
    s.live.holdCompletes = true;
    s.compositors.crash(broadcastId);
    const restarting = s.broadcasts.start(request);
    await tick();
    expect(s.compositors.log).toEqual([`start ${broadcastId} key-ls1`]);
    s.live.releaseCompletes();
    await restarting;
    expect(s.live.log).toEqual(['complete ls1']);
    expect(s.compositors.log).toEqual([`start ${broadcastId} key-ls1`, `start ${broadcastId} key-ls1`]);
    expect((await s.broadcasts.get(request)).status).toBe('active');
  });

  it('refuses a broadcast over the limit (400) and one to a live stream that does not exist (400), storing nothing', async () => {
    const s = setup();
    const { spaceId } = await spaceWithBroadcast(s);
    expect(await refusal(s.broadcasts.create({ space_id: spaceId, broadcast: { live_stream_id: 'ls2' } }))).toEqual(
      invalid('broadcasts: a space can have at most 1 broadcast'),
    );
    expect(await refusal(s.spaces.create({ broadcasts: [{ live_stream_id: 'nope' }] }))).toEqual(invalid('broadcasts[0].live_stream_id: no live stream nope'));
    expect(s.broadcastRows.rows.size).toBe(1);
    const two = setup({ SPACES_BROADCAST_LIMIT: '2' });
    const { spaceId: roomy } = await spaceWithBroadcast(two);
    expect((await two.broadcasts.create({ space_id: roomy, broadcast: { live_stream_id: 'ls2', layout: 'crop' } })).layout).toBe('crop');
  });
});

describe('SpacesService (spec 2.10, 3)', () => {
  it('deletes only while the space and its broadcasts are idle; its broadcasts’ deleted events first', async () => {
    const s = setup();
    const { spaceId, broadcastId, request } = await spaceWithBroadcast(s);
    await s.spaceStates.toActive(spaceId);
    // its broadcast is idle (never started), the space itself is not
    expect(await refusal(s.spaces.delete(spaceId))).toEqual(conflict('A space can be deleted only while idle; it is active'));
    await s.broadcasts.start(request);
    await s.spaceStates.toIdle(spaceId);
    expect(await refusal(s.spaces.delete(spaceId))).toEqual(conflict('A space can be deleted only while its broadcasts are idle'));
    await s.broadcasts.stop(request);
    await s.spaces.delete(spaceId);
    expect(s.types().slice(-2)).toEqual([`video.space.broadcast.deleted ${broadcastId}`, `video.space.deleted ${spaceId}`]);
    expect(await refusal(s.spaces.get(spaceId))).toEqual({ code: ErrorCode.NOT_FOUND, messages: ['Space not found'] });
  });

  it('creates a server space with its broadcast’s defaults, and idles the spaces a previous run left active', async () => {
    const s = setup();
    const space = await s.spaces.create({ broadcasts: [{ live_stream_id: 'ls1' }] });
    expect({ type: space.type, status: space.status, broadcasts: space.broadcasts.map((b) => [b.layout, b.resolution, b.status]) }).toEqual({
      type: 'server',
      status: 'idle',
      broadcasts: [['gallery', '1920x1080', 'idle']],
    });
    expect(await refusal(s.spaces.create({ type: 'peer', broadcasts: [] }))).toEqual(invalid('type: must be one of server'));
    await s.spaceStates.toActive(space.id);
    await s.spaces.idleAll();
    expect((await s.spaces.get(space.id)).status).toBe('idle');
  });
});
