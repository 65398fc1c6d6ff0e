import {
  assetSchema,
  ENCODING_TIERS,
  MASTER_ACCESS,
  MAX_RESOLUTION_TIERS,
  MP4_SUPPORT,
  PLAYBACK_POLICIES,
  playbackIdSchema,
  VIDEO_QUALITIES,
} from '@platform/api-shapes';
import { z } from 'zod';
import { pagingQuery } from '../validation/paging';
import { dataOf, PASSTHROUGH_MAX } from '../wire/wire';

/** The response shapes (asset, track, playback id) are @platform/api-shapes': the webhooks' data too. */

const CLIP_URL = /^(svc|mux):\/\/assets\//i;

export function isClipUrl(value: string): boolean {
  return CLIP_URL.test(value);
}

export function isHttpUrl(value: string): boolean {
  try {
    const { protocol, hostname } = new URL(value);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  } catch {
    return false;
  }
}

const inputUrl = z
  .string()
  .refine((v) => isHttpUrl(v) || isClipUrl(v), 'must be an http or https URL')
  .meta({ description: 'http(s) URL of a media file (MP4, MOV, MKV, TS, …)' });

/** Spec 2.2 Input, every field Mux has; those of later features are refused with 501 after validation. */
export const assetInputSchema = z
  .object({
    url: inputUrl.optional(),
    overlay_settings: z.record(z.string(), z.unknown()).optional().meta({ description: 'Watermark: not implemented yet (501)' }),
    generated_subtitles: z.array(z.unknown()).optional().meta({ description: 'Not implemented yet (501)' }),
    start_time: z.number().min(0).optional().meta({ description: 'Clips only: not implemented yet (501)' }),
    end_time: z.number().min(0).optional().meta({ description: 'Clips only: not implemented yet (501)' }),
    type: z.enum(['video', 'audio', 'text']).optional(),
    text_type: z.enum(['subtitles']).optional(),
    language_code: z.string().optional(),
    name: z.string().optional(),
    closed_captions: z.boolean().optional(),
    passthrough: z.string().max(PASSTHROUGH_MAX).optional(),
  })
  .strict();

/** A list, or the shortcut of one value (`"input": "https://…"`, `"playback_policy": "public"`). */
function oneOrMany<T extends z.ZodType, S extends z.ZodType>(item: T, single: S, what: string) {
  return z.union([z.array(item), single], { error: `must be ${what}` });
}

const playbackPolicy = z.enum(PLAYBACK_POLICIES);
const playbackPolicies = oneOrMany(playbackPolicy, z.string().pipe(playbackPolicy), 'a playback policy or an array of them').meta({
  description: '`public` or `signed` (one string or an array); one playback id per entry; none: the asset cannot be played',
});
const inputs = oneOrMany(assetInputSchema, inputUrl, 'an array of inputs or a URL string').meta({
  description: 'The main input (an array of one input, or its URL as a string)',
});

/** Asset settings (spec 2.2), with the SDK's newer names `inputs` and `playback_policies`. */
export const assetSettingsObject = z
  .object({
    input: inputs.optional(),
    inputs: inputs.optional(),
    playback_policy: playbackPolicies.optional(),
    playback_policies: playbackPolicies.optional(),
    passthrough: z.string().max(PASSTHROUGH_MAX).optional(),
    max_resolution_tier: z.enum(MAX_RESOLUTION_TIERS).optional().meta({ description: 'Default 1080p' }),
    encoding_tier: z.enum(ENCODING_TIERS).optional().meta({ description: 'Deprecated for video_quality; default smart' }),
    video_quality: z.enum(VIDEO_QUALITIES).optional().meta({ description: 'basic = baseline, plus = smart; default plus' }),
    mp4_support: z.enum(MP4_SUPPORT).optional().meta({ description: 'Only `none` so far' }),
    master_access: z.enum(MASTER_ACCESS).optional().meta({ description: 'Only `none` so far' }),
    normalize_audio: z.boolean().optional().meta({ description: 'Only false so far' }),
    test: z.boolean().optional().meta({ description: 'Test asset: cut to 10 s, watermarked, deleted after 24 hours' }),
    // Mux fields of features not built yet: accepted by the schema, answered 501
    advanced_playback_policies: z.array(z.unknown()).optional(),
    static_renditions: z.array(z.unknown()).optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
    generate_shots: z.boolean().optional(),
    directives: z.array(z.unknown()).optional(),
    copy_overlays: z.boolean().optional(),
  })
  .strict();

type AssetSettingsFields = z.output<typeof assetSettingsObject>;

/** At most one of each pair of names. */
function refuseBothNames(body: AssetSettingsFields, ctx: z.RefinementCtx): void {
  if (body.input !== undefined && body.inputs !== undefined) ctx.addIssue({ code: 'custom', path: ['inputs'], message: 'give input or inputs, not both' });
  if (body.playback_policy !== undefined && body.playback_policies !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['playback_policies'], message: 'give playback_policy or playback_policies, not both' });
  }
}

/** POST /video/v1/assets: the settings with the main input's url required. */
export const createAssetBody = assetSettingsObject.superRefine((body, ctx) => {
  refuseBothNames(body, ctx);
  const given = body.inputs ?? body.input;
  const field = body.inputs !== undefined ? 'inputs' : 'input';
  if (given === undefined || (Array.isArray(given) && given.length === 0)) {
    ctx.addIssue({ code: 'custom', path: [field], message: 'is required (the URL of a media file)' });
  } else if (Array.isArray(given) && given[0].url === undefined) {
    ctx.addIssue({ code: 'custom', path: [field, 0, 'url'], message: 'is required' });
  }
});

/**
 * new_asset_settings of a direct upload (spec 2.2): the same settings, but the uploaded file is the
 * main input, so the first input has no url.
 */
export const uploadAssetSettingsBody = assetSettingsObject.superRefine((body, ctx) => {
  refuseBothNames(body, ctx);
  const given = body.inputs ?? body.input;
  const field = body.inputs !== undefined ? 'inputs' : 'input';
  if (typeof given === 'string' || (Array.isArray(given) && given[0]?.url !== undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: typeof given === 'string' ? [field] : [field, 0, 'url'],
      message: 'must be omitted for a direct upload (the uploaded file is the main input)',
    });
  }
});

/** PATCH /video/v1/assets/{id}: only passthrough (Mux's meta and thumbnail_time are answered 501). */
export const updateAssetBody = z
  .object({
    passthrough: z.string().max(PASSTHROUGH_MAX).optional().meta({ description: 'An empty string clears it' }),
    meta: z.record(z.string(), z.unknown()).optional(),
    thumbnail_time: z.number().optional(),
  })
  .strict();

export const assetListQuery = pagingQuery().extend({
  live_stream_id: z.string().optional().meta({ description: 'Only assets recorded from this live stream' }),
  upload_id: z.string().optional().meta({ description: 'Only the asset made from this direct upload' }),
  cursor: z.string().optional().meta({ description: 'The `next_cursor` of the previous page (takes the place of `page`)' }),
});

/** POST …/playback-ids. Mux's SDK makes `policy` optional: `public` then. */
export const createPlaybackIdBody = z
  .object({
    policy: playbackPolicy.default('public'),
    drm_configuration_id: z.string().optional(),
  })
  .strict();

export const inputInfoSchema = z.object({
  settings: z.object({ url: z.string().optional() }),
  file: z
    .object({
      container_format: z.string(),
      tracks: z.array(
        z.object({
          type: z.string(),
          duration: z.number().optional(),
          width: z.int().optional(),
          height: z.int().optional(),
          frame_rate: z.number().optional(),
          encoding: z.string().optional(),
          sample_rate: z.int().optional(),
          sample_size: z.int().optional(),
          channels: z.int().optional(),
        }),
      ),
    })
    .optional(),
});

export const assetResponse = dataOf(assetSchema);
export const assetListResponse = z.object({
  data: z.array(assetSchema),
  next_cursor: z.string().optional().meta({ description: 'Present when the page was full: pass it as `cursor` for the next page' }),
});
export const inputInfoResponse = z.object({ data: z.array(inputInfoSchema) });
export const playbackIdResponse = dataOf(playbackIdSchema);

export type CreateAssetBody = z.output<typeof createAssetBody>;
export type AssetSettingsBody = z.output<typeof assetSettingsObject>;
export type AssetInputBody = z.output<typeof assetInputSchema>;
export type UpdateAssetBody = z.output<typeof updateAssetBody>;
export type AssetListQuery = z.output<typeof assetListQuery>;
export type CreatePlaybackIdBody = z.output<typeof createPlaybackIdBody>;
export type InputInfoBody = z.infer<typeof inputInfoSchema>;
