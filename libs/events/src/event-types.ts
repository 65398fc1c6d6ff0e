/**
 * Every event type the platform publishes. The webhook dispatcher subscribes to all of them
 * (the bus has no wildcard subscriptions); a service that emits a type not listed here fails
 * its unit test, so the two never drift apart.
 */
export const EVENT_TYPES = [
  'system.signing_key.created',
  'system.signing_key.deleted',
  'video.playback_restriction.created',
  'video.playback_restriction.updated',
  'video.playback_restriction.deleted',
  'video.transcription_vocabulary.created',
  'video.transcription_vocabulary.updated',
  'video.transcription_vocabulary.deleted',
  'video.asset.created',
  'video.asset.ready',
  'video.asset.errored',
  'video.asset.updated',
  'video.asset.deleted',
  'video.asset.non_standard_input_detected',
  'video.asset.warning',
  'video.asset.track.created',
  'video.asset.track.ready',
  'video.asset.track.errored',
  'video.asset.track.deleted',
  'video.upload.created',
  'video.upload.asset_created',
  'video.upload.cancelled',
  'video.upload.errored',
  'video.live_stream.created',
  'video.live_stream.updated',
  'video.live_stream.enabled',
  'video.live_stream.disabled',
  'video.live_stream.deleted',
  'video.live_stream.connected',
  'video.live_stream.recording',
  'video.live_stream.active',
  'video.live_stream.disconnected',
  'video.live_stream.idle',
  'video.live_stream.simulcast_target.created',
  'video.live_stream.simulcast_target.deleted',
  'video.live_stream.simulcast_target.idle',
  'video.live_stream.simulcast_target.starting',
  'video.live_stream.simulcast_target.broadcasting',
  'video.live_stream.simulcast_target.errored',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isKnownEventType(type: string): type is EventType {
  return (EVENT_TYPES as readonly string[]).includes(type);
}
