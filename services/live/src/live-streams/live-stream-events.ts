import { Emit } from '@platform/events';
import { SimulcastTargetEntity } from './live-stream.entity';
import { toLiveStreamEventData, toSimulcastTargetMessage } from './live-stream.mapper';
import { LiveStreamRecord } from './live-stream.repository';

/** Every live-stream event this service publishes (each in EVENT_TYPES of @platform/events). */
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
  targetCreated: 'video.live_stream.simulcast_target.created',
  targetDeleted: 'video.live_stream.simulcast_target.deleted',
  targetIdle: 'video.live_stream.simulcast_target.idle',
  targetStarting: 'video.live_stream.simulcast_target.starting',
  targetBroadcasting: 'video.live_stream.simulcast_target.broadcasting',
  targetErrored: 'video.live_stream.simulcast_target.errored',
} as const;

/** The event of each simulcast target status (spec 3), Mux's names. */
export const TARGET_STATUS_EVENTS = {
  idle: LIVE_STREAM_EVENTS.targetIdle,
  starting: LIVE_STREAM_EVENTS.targetStarting,
  broadcasting: LIVE_STREAM_EVENTS.targetBroadcasting,
  errored: LIVE_STREAM_EVENTS.targetErrored,
} as const;

export type LiveStreamEventType = (typeof LIVE_STREAM_EVENTS)[keyof typeof LIVE_STREAM_EVENTS];

export function emitLiveStreamEvent(emit: Emit, type: LiveStreamEventType, record: LiveStreamRecord): void {
  emit({ type, object: { type: 'live', id: record.stream.id }, data: toLiveStreamEventData(record) });
}

/** Mux's simulcast-target events name the target and carry the stream's id in data. */
export function emitTargetEvent(emit: Emit, type: LiveStreamEventType, target: SimulcastTargetEntity): void {
  emit({ type, object: { type: 'simulcast_target', id: target.id }, data: { ...toSimulcastTargetMessage(target), live_stream_id: target.liveStreamId } });
}
