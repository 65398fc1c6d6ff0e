import { withoutAbsent } from '@platform/api-shapes';
import { assets } from '@platform/proto';
import { AssetEntity } from '../assets/asset.entity';
import { StoredStaticRendition } from './stored-static-rendition';

/**
 * A file as the proto carries it: mp4_support's files with only what was read from the stored file
 * (Mux leaves out the per-file fields for them), the Static Renditions API's with their own.
 */
export function toStaticRenditionFile(f: StoredStaticRendition, assetId?: string): assets.StaticRenditionFile {
  const measured = { width: f.width, height: f.height, bitrate: f.bitrate, filesize: f.filesize };
  if (f.origin === 'mp4_support') return withoutAbsent({ name: f.name, ext: f.ext, ...measured, asset_id: assetId });
  return withoutAbsent({
    id: f.id,
    name: f.name,
    ext: f.ext,
    ...measured,
    type: f.type,
    status: f.status,
    resolution: f.resolution,
    resolution_tier: f.resolution_tier,
    passthrough: f.passthrough,
    asset_id: assetId,
  });
}

/** `static_renditions` when any was asked for: mp4_support's files once made, the API's always. */
export function toStaticRenditionsMessage(a: AssetEntity): assets.StaticRenditions | undefined {
  const files = a.staticRenditions.filter((f) => f.origin === 'api' || f.status === 'ready');
  if (a.staticRenditionsStatus === null && a.staticRenditions.length === 0) return undefined;
  return { status: a.staticRenditionsStatus ?? 'disabled', files: files.map((f) => toStaticRenditionFile(f)) };
}

/** `master` while master_access is temporary; its URL once ready. */
export function toMasterMessage(a: AssetEntity): assets.AssetMaster | undefined {
  if (a.masterStatus === null) return undefined;
  return withoutAbsent({ status: a.masterStatus, url: a.masterStatus === 'ready' ? (a.masterUrl ?? undefined) : undefined });
}
