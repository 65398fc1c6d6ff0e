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
} as const;

export type AssetEventType = (typeof ASSET_EVENTS)[keyof typeof ASSET_EVENTS];

export function emitAssetEvent(emit: Emit, type: AssetEventType, asset: AssetEntity, playbackIds: PlaybackIdEntity[]): void {
  emit({ type, object: { type: 'asset', id: asset.id }, data: { ...toAssetEventData(asset, playbackIds) } });
}

export function emitTrackEvent(emit: Emit, type: AssetEventType, asset: AssetEntity, track: assets.Track): void {
  emit({ type, object: { type: 'track', id: track.id }, data: { ...toTrackEventData(asset.id, track) } });
}
