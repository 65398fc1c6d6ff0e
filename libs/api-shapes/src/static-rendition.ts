import { assets } from '@platform/proto';
import { z } from 'zod';
import { withoutAbsent } from './wire';

/** Resolutions of Mux's Static Renditions API (SDK 15 CreateStaticRenditionRequest). */
export const STATIC_RENDITION_RESOLUTIONS = ['highest', 'audio-only', '2160p', '1440p', '1080p', '720p', '540p', '480p', '360p', '270p'] as const;
/** File names Mux gives static renditions (SDK 15 StaticRendition.name). */
export const STATIC_RENDITION_NAMES = [
  'low.mp4',
  'medium.mp4',
  'high.mp4',
  'highest.mp4',
  'audio.m4a',
  'capped-1080p.mp4',
  '2160p.mp4',
  '1440p.mp4',
  '1080p.mp4',
  '720p.mp4',
  '540p.mp4',
  '480p.mp4',
  '360p.mp4',
  '270p.mp4',
] as const;
export const STATIC_RENDITION_STATUSES = ['ready', 'preparing', 'skipped', 'errored'] as const;
/** `static_renditions.status`: the aggregate of mp4_support's files (spec 2.1). */
export const STATIC_RENDITIONS_STATUSES = ['ready', 'preparing', 'disabled', 'errored'] as const;
export const MASTER_STATUSES = ['ready', 'preparing', 'errored'] as const;

/**
 * One file of `static_renditions.files` (SDK 15 StaticRendition): what was read from the stored file
 * (`width`, `height`, `bitrate`, `filesize` once made), and for renditions of the Static Renditions API
 * their own `id`, `type`, `status`, `resolution`, `resolution_tier`, `passthrough`.
 */
export const staticRenditionSchema = z.object({
  id: z.string().optional().meta({ description: 'Static Renditions API only' }),
  name: z.enum(STATIC_RENDITION_NAMES),
  ext: z.enum(['mp4', 'm4a']),
  width: z.int().optional(),
  height: z.int().optional(),
  bitrate: z.int().optional().meta({ description: 'Bits per second, of the stored file' }),
  filesize: z.string().regex(/^\d+$/).optional().meta({ description: 'Bytes of the stored file' }),
  type: z.enum(['standard', 'advanced']).optional().meta({ description: 'Static Renditions API only: advanced for a named resolution' }),
  status: z.enum(STATIC_RENDITION_STATUSES).optional().meta({ description: 'Static Renditions API only' }),
  resolution: z.enum(STATIC_RENDITION_RESOLUTIONS).optional().meta({ description: 'Static Renditions API only' }),
  resolution_tier: z.enum(['2160p', '1440p', '1080p', '720p', 'audio-only']).optional().meta({ description: 'Static Renditions API only' }),
  passthrough: z.string().optional(),
});

/** Spec 2.1 `static_renditions`: absent when none was asked for. */
export const staticRenditionsSchema = z.object({
  status: z.enum(STATIC_RENDITIONS_STATUSES).meta({ description: 'Of the files mp4_support asked for; `disabled` when it is `none`' }),
  files: z.array(staticRenditionSchema),
});

/** Spec 2.1 `master`: absent when master_access is `none` and after the URL expired. */
export const masterSchema = z.object({
  status: z.enum(MASTER_STATUSES),
  url: z.string().optional().meta({ description: 'When ready: a temporary MP4 link that needs no credentials' }),
});

/** The data of `video.asset.static_rendition.*` (SDK 15 WebhookAssetStaticRendition): the file as the asset shows it, with the asset's id. */
export const staticRenditionEventSchema = staticRenditionSchema.extend({ id: z.string(), asset_id: z.string() });

export type StaticRenditionBody = z.infer<typeof staticRenditionSchema>;
export type StaticRenditionsBody = z.infer<typeof staticRenditionsSchema>;
export type MasterBody = z.infer<typeof masterSchema>;
export type StaticRenditionEventBody = z.infer<typeof staticRenditionEventSchema>;

/** One file as the API shows it (absent fields left out, `filesize` as a string). */
export function toStaticRendition(f: assets.StaticRenditionFile): StaticRenditionBody {
  return withoutAbsent({
    id: f.id,
    name: f.name as StaticRenditionBody['name'],
    ext: f.ext as StaticRenditionBody['ext'],
    width: f.width,
    height: f.height,
    bitrate: f.bitrate,
    filesize: f.filesize === undefined ? undefined : String(Math.trunc(f.filesize)),
    type: f.type as StaticRenditionBody['type'],
    status: f.status as StaticRenditionBody['status'],
    resolution: f.resolution as StaticRenditionBody['resolution'],
    resolution_tier: f.resolution_tier as StaticRenditionBody['resolution_tier'],
    passthrough: f.passthrough,
  });
}

export function toStaticRenditions(s: assets.StaticRenditions): StaticRenditionsBody {
  return { status: s.status as StaticRenditionsBody['status'], files: s.files.map(toStaticRendition) };
}

export function toMaster(m: assets.AssetMaster): MasterBody {
  return withoutAbsent({ status: m.status as MasterBody['status'], url: m.url });
}

/** The data of `video.asset.static_rendition.*`. */
export function toStaticRenditionEvent(assetId: string, f: assets.StaticRenditionFile & { id: string }): StaticRenditionEventBody {
  return { ...toStaticRendition(f), id: f.id, asset_id: assetId };
}
