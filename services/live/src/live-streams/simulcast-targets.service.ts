import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { live } from '@platform/proto';
import { emitLiveStreamEvent, emitTargetEvent, LIVE_STREAM_EVENTS, SIMULCAST_TARGET_EVENTS, TARGET_STATUS_EVENTS } from './live-stream-events';
import { SimulcastStatus, SimulcastTargetEntity } from './live-stream.entity';
import { toSimulcastTargetMessage } from './live-stream.mapper';
import { LiveStreamRepository } from './live-stream.repository';
import { checkSimulcastTarget, throwIfInvalid } from './live-stream-settings';
import { newTarget, notFound as streamNotFound } from './live-streams.service';
import { OutboundPolicy } from './outbound-policy';

/** Simulcast targets (spec 2.3, 4.3): created and deleted only while the stream is `idle` (spec 3). */
@Injectable()
export class SimulcastTargetsService {
  constructor(
    @Inject(LiveStreamRepository) private readonly streams: LiveStreamRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(OutboundPolicy) private readonly outbound: OutboundPolicy,
  ) {}

  async create(r: live.CreateSimulcastTargetRequest): Promise<live.SimulcastTarget> {
    const invalid: string[] = [];
    checkSimulcastTarget(r.target, 'simulcast_target', invalid, this.outbound);
    throwIfInvalid(invalid.map((m) => m.replace(/^simulcast_target\./, '')));
    return this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, r.live_stream_id);
      if (!stream) throw streamNotFound();
      if (stream.status !== 'idle') throw DomainError.precondition(`Simulcast targets can be added only while the live stream is idle; it is ${stream.status}`);
      const now = new Date();
      const target = newTarget(stream.id, r.target!, now);
      await this.streams.insertTarget(manager, target);
      const updated = await this.streams.update(manager, stream.id, { updatedAt: now });
      emitTargetEvent(emit, SIMULCAST_TARGET_EVENTS.created, target);
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.updated, await this.streams.record(updated, manager));
      return toSimulcastTargetMessage(target);
    });
  }

  async get(r: live.SimulcastTargetRequest): Promise<live.SimulcastTarget> {
    const target = await this.streams.findTarget(r.live_stream_id, r.simulcast_target_id);
    if (!target) throw (await this.streams.findById(r.live_stream_id)) ? notFound() : streamNotFound();
    return toSimulcastTargetMessage(target);
  }

  async delete(r: live.SimulcastTargetRequest): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, r.live_stream_id);
      if (!stream) throw streamNotFound();
      const target = await this.streams.findTarget(r.live_stream_id, r.simulcast_target_id, manager);
      if (!target) throw notFound();
      if (stream.status !== 'idle')
        throw DomainError.precondition(`Simulcast targets can be deleted only while the live stream is idle; it is ${stream.status}`);
      await this.streams.deleteTarget(manager, stream.id, target.id);
      const updated = await this.streams.update(manager, stream.id, { updatedAt: new Date() });
      emitTargetEvent(emit, SIMULCAST_TARGET_EVENTS.deleted, target);
      emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.updated, await this.streams.record(updated, manager));
    });
  }
}

/** A target's next status; an error carries the reason (logged: the API has no field for it). */
export type TargetState = { status: Exclude<SimulcastStatus, 'errored'> } | { status: 'errored'; severity: 'normal' | 'fatal'; reason?: string };

/** How the relays of a live session move their targets (spec 3), each change with its event. */
@Injectable()
export class SimulcastTargetStates {
  constructor(
    @Inject(LiveStreamRepository) private readonly streams: LiveStreamRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The stream's targets now (the relays of a session start from these). */
  targetsOf(liveStreamId: string): Promise<SimulcastTargetEntity[]> {
    return this.streams.targetsOf(liveStreamId);
  }

  /** Moves a target to `state` with video.live_stream.simulcast_target.{status}; nothing when it is there already or gone. */
  async move(liveStreamId: string, targetId: string, state: TargetState): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const target = await this.streams.findTarget(liveStreamId, targetId, manager);
      if (!target) return;
      const severity = state.status === 'errored' ? state.severity : null;
      if (target.status === state.status && target.errorSeverity === severity) return;
      const moved = await this.streams.updateTarget(manager, target.id, { status: state.status, errorSeverity: severity });
      emitTargetEvent(emit, TARGET_STATUS_EVENTS[state.status], moved);
    });
  }
}

function notFound(): DomainError {
  return DomainError.notFound('Simulcast target');
}
