import { toStaticRenditionEvent } from '@platform/api-shapes';
import { Emit, EventTypeFor } from '@platform/events';
import { PlaybackIdEntity } from '../playback-ids/playback-id.entity';
import { AssetEntity } from '../assets/asset.entity';
import { emitAssetEvent } from '../assets/asset-events';
import { toStaticRenditionFile } from './static-rendition.mapper';
import { StoredStaticRendition } from './stored-static-rendition';

/** mp4_support's files as a whole, and the master MP4: the data is the asset's body. */
export const MP4_SUPPORT_EVENTS = {
  preparing: 'video.asset.static_renditions.preparing',
  ready: 'video.asset.static_renditions.ready',
  errored: 'video.asset.static_renditions.errored',
  deleted: 'video.asset.static_renditions.deleted',
} as const satisfies Record<string, EventTypeFor<'asset'>>;

export const MASTER_EVENTS = {
  preparing: 'video.asset.master.preparing',
  ready: 'video.asset.master.ready',
  errored: 'video.asset.master.errored',
  deleted: 'video.asset.master.deleted',
} as const satisfies Record<string, EventTypeFor<'asset'>>;

/** One rendition of the Static Renditions API: the data is the file as the asset shows it, with `asset_id`. */
export const STATIC_RENDITION_EVENTS = {
  created: 'video.asset.static_rendition.created',
  ready: 'video.asset.static_rendition.ready',
  errored: 'video.asset.static_rendition.errored',
  deleted: 'video.asset.static_rendition.deleted',
  skipped: 'video.asset.static_rendition.skipped',
} as const satisfies Record<string, EventTypeFor<'static_rendition'>>;

type AssetLevel = (typeof MP4_SUPPORT_EVENTS)[keyof typeof MP4_SUPPORT_EVENTS] | (typeof MASTER_EVENTS)[keyof typeof MASTER_EVENTS];
type FileLevel = (typeof STATIC_RENDITION_EVENTS)[keyof typeof STATIC_RENDITION_EVENTS];

/** An event a change of downloads causes, emitted with the asset as it is after the change. */
export type DownloadEvent = { type: AssetLevel } | { type: FileLevel; file: StoredStaticRendition };

export function emitDownloadEvents(emit: Emit, asset: AssetEntity, playbackIds: PlaybackIdEntity[], events: readonly DownloadEvent[]): void {
  for (const event of events) {
    if ('file' in event) emit(event.type, toStaticRenditionEvent(asset.id, { ...toStaticRenditionFile(event.file), id: event.file.id! }));
    else emitAssetEvent(emit, event.type, asset, playbackIds);
  }
}
