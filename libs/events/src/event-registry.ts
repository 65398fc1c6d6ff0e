import {
  assetSchema,
  assetWarningSchema,
  liveStreamSchema,
  playbackRestrictionSchema,
  signingKeySchema,
  simulcastTargetEventSchema,
  staticRenditionEventSchema,
  trackEventSchema,
  transcriptionVocabularySchema,
  uploadSchema,
  webInputSchema,
  spaceSchema,
  broadcastEventSchema,
} from '@platform/api-shapes';
import { z } from 'zod';
import { defineEvent, EventDefinition } from './event-definition';

/**
 * Every event type the platform publishes, each with its object type, topic version and the
 * schema of its data. The data is always the API body of the object (`@platform/api-shapes`), as
 * a `GET` of it answers at that moment; track and static-rendition events add `asset_id`, simulcast-target events
 * `live_stream_id`, `video.asset.warning` the `warning` (as Mux's webhooks do). Producers can emit
 * only these (UnitOfWork's `emit` is typed by this list and checks the data); consumers validate
 * against it; the webhook dispatcher subscribes to all of it.
 */
export const EVENT_DEFINITIONS = [
  defineEvent('system.signing_key.created', 'signing_key', signingKeySchema),
  defineEvent('system.signing_key.deleted', 'signing_key', signingKeySchema),
  defineEvent('video.playback_restriction.created', 'playback_restriction', playbackRestrictionSchema),
  defineEvent('video.playback_restriction.updated', 'playback_restriction', playbackRestrictionSchema),
  defineEvent('video.playback_restriction.deleted', 'playback_restriction', playbackRestrictionSchema),
  defineEvent('video.transcription_vocabulary.created', 'transcription_vocabulary', transcriptionVocabularySchema),
  defineEvent('video.transcription_vocabulary.updated', 'transcription_vocabulary', transcriptionVocabularySchema),
  defineEvent('video.transcription_vocabulary.deleted', 'transcription_vocabulary', transcriptionVocabularySchema),
  defineEvent('video.web_input.created', 'web_input', webInputSchema),
  defineEvent('video.web_input.updated', 'web_input', webInputSchema),
  defineEvent('video.web_input.launching', 'web_input', webInputSchema),
  defineEvent('video.web_input.streaming', 'web_input', webInputSchema),
  defineEvent('video.web_input.idle', 'web_input', webInputSchema),
  defineEvent('video.web_input.deleted', 'web_input', webInputSchema),
  defineEvent('video.space.created', 'space', spaceSchema),
  defineEvent('video.space.active', 'space', spaceSchema),
  defineEvent('video.space.idle', 'space', spaceSchema),
  defineEvent('video.space.deleted', 'space', spaceSchema),
  defineEvent('video.space.broadcast.created', 'broadcast', broadcastEventSchema),
  defineEvent('video.space.broadcast.active', 'broadcast', broadcastEventSchema),
  defineEvent('video.space.broadcast.idle', 'broadcast', broadcastEventSchema),
  defineEvent('video.space.broadcast.deleted', 'broadcast', broadcastEventSchema),
  defineEvent('video.asset.created', 'asset', assetSchema),
  defineEvent('video.asset.ready', 'asset', assetSchema),
  defineEvent('video.asset.errored', 'asset', assetSchema),
  defineEvent('video.asset.updated', 'asset', assetSchema),
  defineEvent('video.asset.deleted', 'asset', assetSchema),
  defineEvent('video.asset.non_standard_input_detected', 'asset', assetSchema),
  defineEvent('video.asset.warning', 'asset', assetWarningSchema),
  defineEvent('video.asset.track.created', 'track', trackEventSchema),
  defineEvent('video.asset.track.ready', 'track', trackEventSchema),
  defineEvent('video.asset.track.errored', 'track', trackEventSchema),
  defineEvent('video.asset.track.deleted', 'track', trackEventSchema),
  defineEvent('video.asset.static_renditions.preparing', 'asset', assetSchema),
  defineEvent('video.asset.static_renditions.ready', 'asset', assetSchema),
  defineEvent('video.asset.static_renditions.errored', 'asset', assetSchema),
  defineEvent('video.asset.static_renditions.deleted', 'asset', assetSchema),
  defineEvent('video.asset.static_rendition.created', 'static_rendition', staticRenditionEventSchema),
  defineEvent('video.asset.static_rendition.ready', 'static_rendition', staticRenditionEventSchema),
  defineEvent('video.asset.static_rendition.errored', 'static_rendition', staticRenditionEventSchema),
  defineEvent('video.asset.static_rendition.deleted', 'static_rendition', staticRenditionEventSchema),
  defineEvent('video.asset.static_rendition.skipped', 'static_rendition', staticRenditionEventSchema),
  defineEvent('video.asset.master.preparing', 'asset', assetSchema),
  defineEvent('video.asset.master.ready', 'asset', assetSchema),
  defineEvent('video.asset.master.errored', 'asset', assetSchema),
  defineEvent('video.asset.master.deleted', 'asset', assetSchema),
  defineEvent('video.upload.created', 'upload', uploadSchema),
  defineEvent('video.upload.asset_created', 'upload', uploadSchema),
  defineEvent('video.upload.cancelled', 'upload', uploadSchema),
  defineEvent('video.upload.errored', 'upload', uploadSchema),
  defineEvent('video.live_stream.created', 'live', liveStreamSchema),
  defineEvent('video.live_stream.updated', 'live', liveStreamSchema),
  defineEvent('video.live_stream.enabled', 'live', liveStreamSchema),
  defineEvent('video.live_stream.disabled', 'live', liveStreamSchema),
  defineEvent('video.live_stream.deleted', 'live', liveStreamSchema),
  defineEvent('video.live_stream.connected', 'live', liveStreamSchema),
  defineEvent('video.live_stream.recording', 'live', liveStreamSchema),
  defineEvent('video.live_stream.active', 'live', liveStreamSchema),
  defineEvent('video.live_stream.disconnected', 'live', liveStreamSchema),
  defineEvent('video.live_stream.idle', 'live', liveStreamSchema),
  defineEvent('video.live_stream.simulcast_target.created', 'simulcast_target', simulcastTargetEventSchema),
  defineEvent('video.live_stream.simulcast_target.deleted', 'simulcast_target', simulcastTargetEventSchema),
  defineEvent('video.live_stream.simulcast_target.idle', 'simulcast_target', simulcastTargetEventSchema),
  defineEvent('video.live_stream.simulcast_target.starting', 'simulcast_target', simulcastTargetEventSchema),
  defineEvent('video.live_stream.simulcast_target.broadcasting', 'simulcast_target', simulcastTargetEventSchema),
  defineEvent('video.live_stream.simulcast_target.errored', 'simulcast_target', simulcastTargetEventSchema),
] as const;

type Definitions = (typeof EVENT_DEFINITIONS)[number];

/** A registered event type. */
export type EventType = Definitions['type'];
export type EventDefinitionOf<T extends EventType> = Extract<Definitions, { type: T }>;
/** The `data` of an event type, as its schema outputs it. */
export type EventData<T extends EventType> = z.output<EventDefinitionOf<T>['data']>;
export type EventObjectType<T extends EventType = EventType> = EventDefinitionOf<T>['objectType'];
/** The event types about one kind of object (`EventTypeFor<'asset'>`: every `video.asset.*` but the track events). */
export type EventTypeFor<O extends string> = Extract<Definitions, { objectType: O }>['type'];

/** Every registered type, for subscriptions to all of them (the webhook dispatcher). */
export const EVENT_TYPES: readonly EventType[] = EVENT_DEFINITIONS.map((d) => d.type);

const BY_TYPE = new Map<string, EventDefinition>(EVENT_DEFINITIONS.map((d) => [d.type, d as EventDefinition]));

export function isKnownEventType(type: string): type is EventType {
  return BY_TYPE.has(type);
}

/** The definition of a registered type; undefined for any other string. */
export function definitionOf(type: string): EventDefinition | undefined {
  return BY_TYPE.get(type);
}

/** Topic of a registered type: `video.asset.ready` → `video.asset.ready.v1` (its registered version). */
export function topicOf(type: EventType): string {
  return `${type}.v${BY_TYPE.get(type)!.version}`;
}
