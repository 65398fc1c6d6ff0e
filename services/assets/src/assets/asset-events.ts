import { toAsset, toAssetWarning, toTrackEvent } from '@platform/api-shapes';
import { Emit, EventTypeFor } from '@platform/events';
import { assets } from '@platform/proto';
import { PlaybackIdEntity } from '../playback-ids/playback-id.entity';
import { AssetEntity } from './asset.entity';
import { toAssetMessage } from './asset.mapper';
import { publicTrack, StoredTrack } from '../tracks/stored-track';

/** Every event type this service publishes (each in the registry of @platform/events). */
export const ASSET_EVENTS = {
  created: 'video.asset.created',
  ready: 'video.asset.ready',
  errored: 'video.asset.errored',
  updated: 'video.asset.updated',
  deleted: 'video.asset.deleted',
  nonStandardInputDetected: 'video.asset.non_standard_input_detected',
  warning: 'video.asset.warning',
} as const satisfies Record<string, EventTypeFor<'asset'>>;

export const TRACK_EVENTS = {
  created: 'video.asset.track.created',
  ready: 'video.asset.track.ready',
  errored: 'video.asset.track.errored',
  deleted: 'video.asset.track.deleted',
} as const satisfies Record<string, EventTypeFor<'track'>>;

/** Every event whose data is the asset's body (static_renditions.* and master.* too). */
export type AssetEventType = Exclude<EventTypeFor<'asset'>, 'video.asset.warning'>;
export type TrackEventType = (typeof TRACK_EVENTS)[keyof typeof TRACK_EVENTS];

/** The data is the asset's API body, built by the gateway's own mapper from the same message. */
export function emitAssetEvent(emit: Emit, type: AssetEventType, asset: AssetEntity, playbackIds: PlaybackIdEntity[]): void {
  emit(type, toAsset(toAssetMessage(asset, playbackIds)));
}

/** The track as the asset's body shows it, with the asset's id (as Mux sends it). */
export function emitTrackEvent(emit: Emit, type: TrackEventType, asset: AssetEntity, track: StoredTrack): void {
  emit(type, toTrackEvent(asset.id, publicTrack(track)));
}

/** video.asset.warning: the asset's API body with the warning (Mux's `WebhookAssetWarning` has `warning: { type, message }`). */
export function emitWarningEvent(emit: Emit, asset: AssetEntity, playbackIds: PlaybackIdEntity[], warning: assets.AssetWarning): void {
  emit(ASSET_EVENTS.warning, toAssetWarning(toAssetMessage(asset, playbackIds), { type: warning.type, message: warning.message }));
}
