import { toLiveStream, toSimulcastTargetEvent } from '@platform/api-shapes';
import { Emit, EventTypeFor } from '@platform/events';
import { SimulcastTargetEntity } from './live-stream.entity';
import { toLiveStreamMessage, toSimulcastTargetMessage } from './live-stream.mapper';
import { LiveStreamRecord } from './live-stream.repository';

/** Every live-stream event this service publishes (each in the registry of @platform/events). */
export const LIVE_STREAM_EVENTS = {
  created: 'video.live_stream.created',
  updated: 'video.live_stream.updated',
  enabled: 'video.live_stream.enabled',
  disabled: 'video.live_stream.disabled',
  deleted: 'video.live_stream.deleted',
  connected: 'video.live_stream.connected',
  recording: 'video.live_stream.recording',
  active: 'video.live_stream.active',
  disconnected: 'video.live_stream.disconnected',
  idle: 'video.live_stream.idle',
} as const satisfies Record<string, EventTypeFor<'live'>>;

export const SIMULCAST_TARGET_EVENTS = {
  created: 'video.live_stream.simulcast_target.created',
  deleted: 'video.live_stream.simulcast_target.deleted',
  idle: 'video.live_stream.simulcast_target.idle',
  starting: 'video.live_stream.simulcast_target.starting',
  broadcasting: 'video.live_stream.simulcast_target.broadcasting',
  errored: 'video.live_stream.simulcast_target.errored',
} as const satisfies Record<string, EventTypeFor<'simulcast_target'>>;

/** The event of each simulcast target status (spec 3), Mux's names. */
export const TARGET_STATUS_EVENTS = {
  idle: SIMULCAST_TARGET_EVENTS.idle,
  starting: SIMULCAST_TARGET_EVENTS.starting,
  broadcasting: SIMULCAST_TARGET_EVENTS.broadcasting,
  errored: SIMULCAST_TARGET_EVENTS.errored,
} as const;

export type LiveStreamEventType = (typeof LIVE_STREAM_EVENTS)[keyof typeof LIVE_STREAM_EVENTS];
export type SimulcastTargetEventType = (typeof SIMULCAST_TARGET_EVENTS)[keyof typeof SIMULCAST_TARGET_EVENTS];

/** The data is the stream's API body, built by the gateway's own mapper from the same message. */
export function emitLiveStreamEvent(emit: Emit, type: LiveStreamEventType, record: LiveStreamRecord): void {
  emit(type, toLiveStream(toLiveStreamMessage(record)));
}

/** Mux's simulcast-target events name the target and carry the stream's id in data. */
export function emitTargetEvent(emit: Emit, type: SimulcastTargetEventType, target: SimulcastTargetEntity): void {
  emit(type, toSimulcastTargetEvent(target.liveStreamId, toSimulcastTargetMessage(target)));
}
