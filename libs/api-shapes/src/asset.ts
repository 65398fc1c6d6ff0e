import { assets } from '@platform/proto';
import { z } from 'zod';
import { playbackIdSchema, toPlaybackId } from './playback-id';
import { masterSchema, staticRenditionsSchema, toMaster, toStaticRenditions } from './static-rendition';
import { unixSecondsSchema, unixSecondsString, withoutAbsent } from './wire';

/** Mux's values, including those of features not built yet (the gateway answers those 501). */
export const PLAYBACK_POLICIES = ['public', 'signed', 'drm'] as const;
export const MP4_SUPPORT = ['none', 'standard', 'capped-1080p', 'audio-only', 'audio-only,capped-1080p'] as const;
export const MASTER_ACCESS = ['none', 'temporary'] as const;
export const MAX_RESOLUTION_TIERS = ['1080p', '1440p', '2160p'] as const;
/** Spec 2.1 has smart and baseline; the SDK also sends the deprecated `premium`. */
export const ENCODING_TIERS = ['smart', 'baseline', 'premium'] as const;
export const VIDEO_QUALITIES = ['basic', 'plus', 'premium'] as const;
export const INGEST_TYPES = ['on_demand_url', 'on_demand_direct_upload', 'on_demand_clip', 'live_rtmp', 'live_srt'] as const;

/** A track inside an asset (spec 2.1); absent fields are left out. */
export const trackSchema = z.object({
  id: z.string(),
  type: z.enum(['video', 'audio', 'text']),
  duration: z.number().optional(),
  max_width: z.int().optional(),
  max_height: z.int().optional(),
  max_frame_rate: z.number().optional(),
  max_channels: z.int().optional(),
  max_channel_layout: z.string().optional(),
  primary: z.boolean().optional(),
  language_code: z.string().optional(),
  name: z.string().optional(),
  status: z.enum(['preparing', 'ready', 'errored', 'deleted']).optional().meta({ description: 'Text tracks only' }),
  text_type: z.enum(['subtitles']).optional(),
  text_source: z.enum(['uploaded', 'embedded', 'generated_live', 'generated_live_final', 'generated_vod']).optional(),
  closed_captions: z.boolean().optional(),
  passthrough: z.string().optional(),
  error: z
    .object({ type: z.string(), messages: z.array(z.string()) })
    .optional()
    .meta({ description: 'Errored tracks: why the track could not be made (Mux’s WebhookAssetTrack.error)' }),
});

/** Spec 2.1 as built so far; absent fields are left out. */
export const assetSchema = z.object({
  id: z.string(),
  created_at: unixSecondsSchema,
  updated_at: unixSecondsSchema.optional().meta({ description: 'Present after an update' }),
  status: z.enum(['preparing', 'ready', 'errored']),
  progress: z
    .object({ state: z.enum(['ingesting', 'transcoding', 'completed', 'errored']), progress: z.number() })
    .meta({ description: 'Mux’s ingest progress, from the status: 0 while preparing, 100 when ready, -1 when errored' }),
  duration: z.number().optional(),
  max_stored_resolution: z.enum(['Audio only', 'SD', 'HD', 'FHD', 'UHD']).optional().meta({ description: 'Deprecated: use resolution_tier' }),
  resolution_tier: z.enum(['audio-only', '720p', '1080p', '1440p', '2160p']).optional(),
  max_resolution_tier: z.enum(MAX_RESOLUTION_TIERS),
  encoding_tier: z.enum(ENCODING_TIERS),
  video_quality: z.enum(VIDEO_QUALITIES),
  max_stored_frame_rate: z.number().optional(),
  aspect_ratio: z.string().optional(),
  playback_ids: z.array(playbackIdSchema).optional(),
  tracks: z.array(trackSchema).optional(),
  errors: z.object({ type: z.string(), messages: z.array(z.string()) }).optional(),
  upload_id: z.string().optional(),
  live_stream_id: z.string().optional(),
  source_asset_id: z.string().optional().meta({ description: 'Clips only: the asset the clip was cut from' }),
  is_live: z.boolean().optional().meta({ description: 'Assets of live streams only: true while the recording is under way' }),
  recording_times: z
    .array(z.object({ started_at: z.string().meta({ description: 'ISO 8601' }), duration: z.number(), type: z.enum(['content', 'slate']) }))
    .optional()
    .meta({ description: 'Recorded live assets: each span of encoder content, and of slate inserted while the encoder was away' }),
  passthrough: z.string().optional(),
  thumbnail_time: z
    .number()
    .optional()
    .meta({ description: 'Seconds: the media time within the asset used when a thumbnail without an explicit time is requested; present when set' }),
  master_access: z.enum(MASTER_ACCESS),
  master: masterSchema.optional(),
  mp4_support: z.enum(MP4_SUPPORT),
  static_renditions: staticRenditionsSchema.optional(),
  normalize_audio: z.literal(true).optional(),
  non_standard_input_reasons: z.record(z.string(), z.string()).optional(),
  test: z.literal(true).optional(),
  ingest_type: z.enum(INGEST_TYPES),
});

/** The data of `video.asset.track.*`: the track as the asset shows it, with the asset's id (as Mux sends it). */
export const trackEventSchema = trackSchema.extend({ asset_id: z.string() });

/**
 * The data of `video.asset.warning`: the asset with the `warning` Mux's webhook adds
 * (`WebhookAssetWarning` of @mux/mux-node: `warning: { type, message }`).
 */
export const assetWarningSchema = assetSchema.extend({
  warning: z.object({ type: z.string(), message: z.string() }),
});

export type AssetBody = z.infer<typeof assetSchema>;
export type TrackBody = z.infer<typeof trackSchema>;
export type TrackEventBody = z.infer<typeof trackEventSchema>;
export type AssetWarningBody = z.infer<typeof assetWarningSchema>;
export type AssetWarning = AssetWarningBody['warning'];

/**
 * Spec 2.1 as Mux writes it: absent fields left out (`thumbnail_time` only when set), `*_at` as strings, `errors` only when
 * errored, `test` and `normalize_audio` only when true, `non_standard_input_reasons` only for a
 * non-standard input, Mux's `progress` derived from the status. The API body and the data of
 * every `video.asset.*` event.
 */
export function toAsset(a: assets.Asset): AssetBody {
  const reasons = a.non_standard_input_reasons ?? {};
  const nonStandard = Object.keys(reasons).length > 0;
  const body: AssetBody = {
    id: a.id,
    created_at: unixSecondsString(a.created_at),
    status: a.status as AssetBody['status'],
    progress: progressOf(a.status, nonStandard),
    max_resolution_tier: a.max_resolution_tier as AssetBody['max_resolution_tier'],
    encoding_tier: a.encoding_tier as AssetBody['encoding_tier'],
    video_quality: a.video_quality as AssetBody['video_quality'],
    master_access: a.master_access as AssetBody['master_access'],
    mp4_support: a.mp4_support as AssetBody['mp4_support'],
    ingest_type: a.ingest_type as AssetBody['ingest_type'],
  };
  if (a.updated_at !== undefined) body.updated_at = unixSecondsString(a.updated_at);
  if (a.duration !== undefined) body.duration = a.duration;
  if (a.max_stored_resolution !== undefined) body.max_stored_resolution = a.max_stored_resolution as AssetBody['max_stored_resolution'];
  if (a.resolution_tier !== undefined) body.resolution_tier = a.resolution_tier as AssetBody['resolution_tier'];
  if (a.max_stored_frame_rate !== undefined) body.max_stored_frame_rate = a.max_stored_frame_rate;
  if (a.aspect_ratio !== undefined) body.aspect_ratio = a.aspect_ratio;
  if (a.playback_ids.length > 0) body.playback_ids = a.playback_ids.map(toPlaybackId);
  if (a.tracks.length > 0) body.tracks = a.tracks.map(toTrack);
  if (a.status === 'errored' && a.errors) body.errors = { type: a.errors.type, messages: [...a.errors.messages] };
  if (a.upload_id !== undefined) body.upload_id = a.upload_id;
  if (a.live_stream_id !== undefined) body.live_stream_id = a.live_stream_id;
  if (a.source_asset_id !== undefined) body.source_asset_id = a.source_asset_id;
  // spec 2.1: only for assets from live streams, true while the recording is under way
  if (a.ingest_type === 'live_rtmp' || a.ingest_type === 'live_srt') body.is_live = a.status === 'preparing';
  if (a.recording_times && a.recording_times.length > 0) {
    body.recording_times = a.recording_times.map((r) => ({ started_at: r.started_at, duration: r.duration, type: r.type as 'content' | 'slate' }));
  }
  if (a.passthrough !== undefined) body.passthrough = a.passthrough;
  if (a.thumbnail_time !== undefined) body.thumbnail_time = a.thumbnail_time;
  if (a.master) body.master = toMaster(a.master);
  if (a.static_renditions) body.static_renditions = toStaticRenditions(a.static_renditions);
  if (a.normalize_audio) body.normalize_audio = true;
  if (nonStandard) body.non_standard_input_reasons = { ...reasons };
  if (a.test) body.test = true;
  return body;
}

function progressOf(status: string, nonStandard: boolean): AssetBody['progress'] {
  if (status === 'ready') return { state: 'completed', progress: 100 };
  if (status === 'errored') return { state: 'errored', progress: -1 };
  return { state: nonStandard ? 'transcoding' : 'ingesting', progress: 0 };
}

export function toTrack(t: assets.Track): TrackBody {
  return withoutAbsent({
    ...t,
    type: t.type as TrackBody['type'],
    status: t.status as TrackBody['status'],
    text_type: t.text_type as TrackBody['text_type'],
    text_source: t.text_source as TrackBody['text_source'],
    error: t.error ? { type: t.error.type, messages: [...t.error.messages] } : undefined,
  });
}

/** The data of `video.asset.track.*`. */
export function toTrackEvent(assetId: string, t: assets.Track): TrackEventBody {
  return { ...toTrack(t), asset_id: assetId };
}

/** The data of `video.asset.warning`: the asset's body and the warning. */
export function toAssetWarning(a: assets.Asset, warning: AssetWarning): AssetWarningBody {
  return { ...toAsset(a), warning: { type: warning.type, message: warning.message } };
}
