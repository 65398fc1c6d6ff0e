import { Emit } from '@platform/events';
import { assets } from '@platform/proto';
import { PlaybackIdEntity } from '../playback-ids/playback-id.entity';
import { AssetEntity } from './asset.entity';
import { toAssetEventData, toTrackEventData } from './asset.mapper';

/** Every event type this service publishes (each must be in EVENT_TYPES of @platform/events). */
export const ASSET_EVENTS = {
  created: 'video.asset.created',
  ready: 'video.asset.ready',
  errored: 'video.asset.errored',
  updated: 'video.asset.updated',
  deleted: 'video.asset.deleted',
  nonStandardInputDetected: 'video.asset.non_standard_input_detected',
  trackCreated: 'video.asset.track.created',
  trackReady: 'video.asset.track.ready',
  trackErrored: 'video.asset.track.errored',
  warning: 'video.asset.warning',
} as const;

export type AssetEventType = (typeof ASSET_EVENTS)[keyof typeof ASSET_EVENTS];

export function emitAssetEvent(emit: Emit, type: AssetEventType, asset: AssetEntity, playbackIds: PlaybackIdEntity[]): void {
  emit({ type, object: { type: 'asset', id: asset.id }, data: { ...toAssetEventData(asset, playbackIds) } });
}

export function emitTrackEvent(emit: Emit, type: AssetEventType, asset: AssetEntity, track: assets.Track): void {
  emit({ type, object: { type: 'track', id: track.id }, data: { ...toTrackEventData(asset.id, track) } });
}

/** video.asset.warning with Mux's payload (`WebhookAssetWarning` of the SDK): the asset's ids and status, and the warning. */
export function emitWarningEvent(emit: Emit, asset: AssetEntity, warning: assets.AssetWarning): void {
  const data = {
    id: asset.id,
    status: asset.status,
    ...(asset.passthrough !== null ? { passthrough: asset.passthrough } : {}),
    ...(asset.uploadId !== null ? { upload_id: asset.uploadId } : {}),
    ...(asset.liveStreamId !== null ? { live_stream_id: asset.liveStreamId } : {}),
    warning: { type: warning.type, message: warning.message },
  };
  emit({ type: ASSET_EVENTS.warning, object: { type: 'asset', id: asset.id }, data });
}
