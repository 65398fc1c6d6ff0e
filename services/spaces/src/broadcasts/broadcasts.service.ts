import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { DestinationStream, KeyedSerialQueue, LIVE_STREAM_LOOKUP, LiveStreamLookup } from '@platform/grpc';
import { newId } from '@platform/ids';
import { OutboundGuard } from '@platform/outbound';
import { spaces } from '@platform/proto';
import { SpaceEntity } from '../spaces/space.entity';
import { BROADCAST_EVENTS, emitBroadcast } from '../spaces/space-events';
import { toBroadcastMessage } from '../spaces/space.mapper';
import { SpaceRepository } from '../spaces/space.repository';
import { BroadcastEntity } from './broadcast.entity';
import { broadcastFieldsOrProblems, BroadcastFields } from './broadcast-fields';
import { BroadcastRepository } from './broadcast.repository';
import { BroadcastStates } from './broadcast-states';
import { COMPOSITOR_JOBS, CompositorJobs } from './compositor-jobs';

/**
 * Broadcasts (spec 2.10, 4.10, 3): CRUD within a space, and start (only while the space is active: the
 * compositor joins it and streams the layout to the live stream) and stop (the live stream is completed).
 */
@Injectable()
export class BroadcastsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('BroadcastsService');
  private readonly guard: OutboundGuard;
  /** Start, stop and delete of one broadcast run one at a time. */
  private readonly serial = new KeyedSerialQueue();
  /** The end of each compositor that has gone, while it is being recorded (idle, the stream completed). */
  private readonly endings = new Map<string, Promise<void>>();

  constructor(
    @Inject(BroadcastRepository) private readonly broadcasts: BroadcastRepository,
    @Inject(SpaceRepository) private readonly spaces: SpaceRepository,
    @Inject(BroadcastStates) private readonly states: BroadcastStates,
    @Inject(COMPOSITOR_JOBS) private readonly jobs: CompositorJobs,
    @Inject(LIVE_STREAM_LOOKUP) private readonly liveStreams: LiveStreamLookup,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {
    this.guard = new OutboundGuard(config.outboundAllow);
  }

  /** A broadcast left active by a previous run of this service has no compositor any more. */
  async onApplicationBootstrap(): Promise<void> {
    for (const orphan of await this.broadcasts.findActive()) {
      if (!this.jobs.isRunning(orphan.id)) await this.ended(orphan, 'the spaces service restarted while it ran', true);
    }
  }

  /** The fields of new broadcasts, their live streams checked to exist; every problem named. */
  async validFields(inputs: spaces.BroadcastInput[], atIndex: boolean): Promise<BroadcastFields[]> {
    const problems: string[] = [];
    const fields: BroadcastFields[] = [];
    inputs.forEach((input, i) => {
      const result = broadcastFieldsOrProblems(input, this.guard, atIndex ? `broadcasts[${i}].` : '');
      if (Array.isArray(result)) problems.push(...result);
      else fields.push(result);
    });
    if (problems.length > 0) throw DomainError.invalid(...problems);
    for (const [i, f] of fields.entries()) {
      if (!(await this.liveStreams.find(f.liveStreamId)))
        problems.push(`${atIndex ? `broadcasts[${i}].` : ''}live_stream_id: no live stream ${f.liveStreamId}`);
    }
    if (problems.length > 0) throw DomainError.invalid(...problems);
    return fields;
  }

  /** The spec's "one broadcast destination per space by default" (SPACES_BROADCAST_LIMIT). */
  checkLimit(count: number): void {
    const limit = this.config.spaces.broadcastLimit;
    if (count > limit) throw DomainError.invalid(`broadcasts: a space can have at most ${limit} broadcast${limit === 1 ? '' : 's'}`);
  }

  newEntity(spaceId: string, fields: BroadcastFields, now: Date): BroadcastEntity {
    return { id: newId(), spaceId, ...fields, status: 'idle', createdAt: now, updatedAt: now };
  }

  async create(request: spaces.CreateBroadcastRequest): Promise<spaces.Broadcast> {
    const [fields] = await this.validFields([request.broadcast ?? { live_stream_id: '' }], false);
    const broadcast = await this.unitOfWork.run(async (manager, emit) => {
      const space = await this.spaces.lock(manager, request.space_id);
      if (!space) throw DomainError.notFound('Space');
      const existing = (await this.broadcasts.ofSpaces([space.id], manager)).get(space.id) ?? [];
      this.checkLimit(existing.length + 1);
      const created = this.newEntity(space.id, fields, new Date());
      await this.broadcasts.insert(manager, created);
      emitBroadcast(emit, BROADCAST_EVENTS.created, created);
      return created;
    });
    return toBroadcastMessage(broadcast);
  }

  async get(request: spaces.BroadcastRequest): Promise<spaces.Broadcast> {
    return toBroadcastMessage(await this.found(request));
  }

  /** Only while idle (spec 3). */
  delete(request: spaces.BroadcastRequest): Promise<void> {
    return this.serial.run(request.broadcast_id, async () => {
      const current = await this.found(request);
      await this.unitOfWork.run(async (manager, emit) => {
        const deleted = await this.broadcasts.deleteIdle(manager, request.space_id, request.broadcast_id);
        if (!deleted) throw DomainError.precondition(`A broadcast can be deleted only while idle; it is ${current.status}`);
        emitBroadcast(emit, BROADCAST_EVENTS.deleted, deleted);
      });
    });
  }

  /** Only while the space is active (spec 3); an active broadcast stays as it is. */
  start(request: spaces.BroadcastRequest): Promise<void> {
    return this.serial.run(request.broadcast_id, async () => {
      const space = await this.foundSpace(request.space_id);
      const broadcast = await this.found(request);
      if (space.status !== 'active') throw DomainError.precondition(`A broadcast can start only while its space is active; the space is ${space.status}`);
      await this.endings.get(broadcast.id); // a compositor that just died: its stream is completed before a new one starts
      if (broadcast.status === 'active' && this.jobs.isRunning(broadcast.id)) return;
      const { streamKey } = checkStreamable(broadcast.liveStreamId, await this.liveStreams.find(broadcast.liveStreamId));
      const active = await this.states.toActive(broadcast.id);
      if (!active) return;
      await this.jobs
        .start(active, streamKey, (reason, failed) => this.track(active, reason, failed))
        .catch(async (err: unknown) => {
          await this.states.toIdle(active.id, `the compositor could not start: ${String(err)}`, true);
          throw err;
        });
    });
  }

  /** Stops the compositor; resolves once the broadcast is idle and its live stream completed. An idle broadcast stays as it is. */
  stop(request: spaces.BroadcastRequest): Promise<void> {
    return this.serial.run(request.broadcast_id, async () => {
      const broadcast = await this.found(request);
      if (this.jobs.isRunning(broadcast.id)) await this.jobs.stop(broadcast.id);
      else if (broadcast.status === 'active') this.track(broadcast, 'stopped (no compositor was running)', false);
      await this.endings.get(broadcast.id);
    });
  }

  /**
   * Every broadcast of the space stopped (it went idle: spec 3, "broadcasts stop automatically"); each stop waits
   * behind a start still under way, so a start racing the space's idle is stopped too.
   */
  async stopAll(spaceId: string): Promise<void> {
    const all = (await this.broadcasts.ofSpaces([spaceId])).get(spaceId) ?? [];
    await Promise.all(all.map((b) => this.stop({ space_id: spaceId, broadcast_id: b.id })));
  }

  /** The compositor left the room (its page lost the connection): a broadcast that shows nobody is stopped. */
  compositorLeft(spaceId: string, broadcastId: string): Promise<void> {
    return this.stop({ space_id: spaceId, broadcast_id: broadcastId }).catch((err: unknown) =>
      this.logger.error(`broadcast ${broadcastId}: could not stop after its compositor left: ${String(err)}`),
    );
  }

  private track(broadcast: BroadcastEntity, reason: string, failed: boolean): void {
    const ending = this.ended(broadcast, reason, failed).finally(() => {
      if (this.endings.get(broadcast.id) === ending) this.endings.delete(broadcast.id);
    });
    this.endings.set(broadcast.id, ending);
  }

  /** The compositor is gone: idle, and the live stream completed (spec 3: "complete is called on it automatically"). */
  private async ended(broadcast: BroadcastEntity, reason: string, failed: boolean): Promise<void> {
    try {
      if (await this.states.toIdle(broadcast.id, reason, failed)) await this.liveStreams.complete(broadcast.liveStreamId);
    } catch (err) {
      this.logger.error(`broadcast ${broadcast.id}: could not finish its end (${reason}): ${String(err)}`);
    }
  }

  private async found(request: spaces.BroadcastRequest): Promise<BroadcastEntity> {
    await this.foundSpace(request.space_id);
    const broadcast = await this.broadcasts.find(request.space_id, request.broadcast_id);
    if (!broadcast) throw DomainError.notFound('Broadcast');
    return broadcast;
  }

  private async foundSpace(id: string): Promise<SpaceEntity> {
    const space = await this.spaces.findById(id);
    if (!space) throw DomainError.notFound('Space');
    return space;
  }
}

function checkStreamable(streamId: string, stream: DestinationStream | undefined): DestinationStream {
  if (!stream) throw DomainError.precondition(`The broadcast's live stream ${streamId} no longer exists`);
  if (stream.status === 'disabled') throw DomainError.precondition(`The broadcast's live stream ${streamId} is disabled`);
  return stream;
}
