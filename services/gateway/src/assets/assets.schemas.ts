import { HTTP_URL_PATTERN, LANGUAGE_CODE_PATTERN } from '@platform/api-rules';
import {
  assetSchema,
  ENCODING_TIERS,
  MASTER_ACCESS,
  MAX_RESOLUTION_TIERS,
  MP4_SUPPORT,
  PLAYBACK_POLICIES,
  playbackIdSchema,
  STATIC_RENDITION_RESOLUTIONS,
  VIDEO_QUALITIES,
} from '@platform/api-shapes';
import { z } from 'zod';
import { passthroughText, text } from '../validation/text';
import { pagingQuery } from '../validation/paging';
import { dataOf } from '../wire/wire';

/** The response shapes (asset, track, playback id) are @platform/api-shapes': the webhooks' data too. */
/** Languages of Mux's generated subtitles for on-demand assets (SDK 15 AssetGeneratedSubtitleSettings). */
export const GENERATED_SUBTITLE_LANGUAGES = [
  'en',
  'es',
  'it',
  'pt',
  'de',
  'fr',
  'pl',
  'ru',
  'nl',
  'ca',
  'tr',
  'sv',
  'uk',
  'no',
  'fi',
  'sk',
  'el',
  'cs',
  'hr',
  'da',
  'ro',
  'bg',
  'auto',
] as const;

const CLIP_URL = /^(?:svc|mux):\/\/assets\/[A-Za-z0-9]+$/;

export function isClipUrl(value: string): boolean {
  return CLIP_URL.test(value);
}

const INPUT_URL = new RegExp(`${HTTP_URL_PATTERN.source}|${CLIP_URL.source}`);

const inputUrl = z
  .string()
  .regex(INPUT_URL, { error: 'must be an http or https URL' })
  .meta({ description: 'http(s) URL of a media file (MP4, MOV, MKV, TS, …); a clip: `svc://assets/{asset_id}` (or `mux://…`), first input only' });

/** Mux's watermark placement (SDK InputSettings.OverlaySettings); margins and sizes are CSS-like strings (`10%`, `40px`). */
const overlaySettings = z
  .object({
    vertical_align: z.enum(['top', 'middle', 'bottom']).optional(),
    vertical_margin: text(32).optional(),
    horizontal_align: z.enum(['left', 'center', 'right']).optional(),
    horizontal_margin: text(32).optional(),
    width: text(32).optional(),
    height: text(32).optional(),
    opacity: text(32).optional(),
  })
  .strict();

export const generatedSubtitleSettings = z
  .object({
    language_code: z.enum(GENERATED_SUBTITLE_LANGUAGES).optional(),
    name: text(255).optional(),
    passthrough: passthroughText.optional(),
  })
  .strict();

/** Spec 2.2 Input, every field Mux has; those of later features are refused with 501 after validation. */
export const assetInputSchema = z
  .object({
    url: inputUrl.optional(),
    overlay_settings: overlaySettings.optional().meta({ description: 'Watermark: not implemented yet (501)' }),
    generated_subtitles: z
      .array(generatedSubtitleSettings)
      .optional()
      .meta({ description: 'First input: subtitles generated from its audio (English only here: other languages end errored)' }),
    start_time: z.number().min(0).optional().meta({ description: 'Clips only: seconds from the start of the source asset; default 0' }),
    end_time: z
      .number()
      .min(0)
      .optional()
      .meta({ description: 'Clips only: seconds from the start of the source asset, after start_time; default its duration (a live recording: so far)' }),
    type: z.enum(['video', 'audio', 'text']).optional(),
    text_type: z.enum(['subtitles']).optional(),
    language_code: z.string().regex(LANGUAGE_CODE_PATTERN, { error: 'must be a BCP 47 language code such as "en" or "es-MX"' }).optional(),
    name: text(255).optional(),
    closed_captions: z.boolean().optional(),
    passthrough: passthroughText.optional(),
  })
  .strict();

/** A list, or the shortcut of one value (`"input": "https://…"`, `"playback_policy": "public"`). */
function oneOrMany<T extends z.ZodType, S extends z.ZodType>(item: T, single: S, what: string) {
  return z.union([z.array(item), single], { error: `must be ${what}` });
}

const playbackPolicy = z.enum(PLAYBACK_POLICIES);
const playbackPolicies = oneOrMany(playbackPolicy, playbackPolicy, 'a playback policy or an array of them').meta({
  description: '`public` or `signed` (one string or an array); one playback id per entry; none: the asset cannot be played',
});
const inputs = oneOrMany(assetInputSchema, inputUrl, 'an array of inputs or a URL string').meta({
  description: 'The main input (an array of one input, or its URL as a string)',
});

/** Mux's asset metadata (SDK AssetMetadata): free text shown in Mux Data and the dashboard. */
const assetMetadata = z
  .object({
    title: text(512).optional(),
    creator_id: text(128).optional(),
    external_id: text(128).optional(),
  })
  .strict();

/** SDK 15 CreateStaticRenditionRequest. */
const staticRenditionRequest = z.object({ resolution: z.enum(STATIC_RENDITION_RESOLUTIONS), passthrough: passthroughText.optional() }).strict();

/** A playback id to create (POST …/playback-ids, and Mux's advanced_playback_policies). Mux's SDK makes `policy` optional: `public` then. */
const createPlaybackIdFields = z
  .object({
    policy: playbackPolicy.default('public'),
    drm_configuration_id: text(255).optional(),
  })
  .strict();

/** Asset settings (spec 2.2), with the SDK's newer names `inputs` and `playback_policies`. */
export const assetSettingsObject = z
  .object({
    input: inputs.optional(),
    inputs: inputs.optional(),
    playback_policy: playbackPolicies.optional(),
    playback_policies: playbackPolicies.optional(),
    passthrough: passthroughText.optional(),
    max_resolution_tier: z.enum(MAX_RESOLUTION_TIERS).optional().meta({ description: 'Default 1080p' }),
    encoding_tier: z.enum(ENCODING_TIERS).optional().meta({ description: 'Deprecated for video_quality; default smart' }),
    video_quality: z.enum(VIDEO_QUALITIES).optional().meta({ description: 'basic = baseline, plus = smart; default plus' }),
    mp4_support: z.enum(MP4_SUPPORT).optional().meta({ description: 'Static MP4 renditions (deprecated by Mux for static_renditions); default none' }),
    master_access: z.enum(MASTER_ACCESS).optional().meta({ description: '`temporary`: a master MP4 downloadable for 24 hours; default none' }),
    normalize_audio: z.boolean().optional().meta({ description: 'Only false so far' }),
    test: z.boolean().optional().meta({ description: 'Test asset: cut to 10 s, watermarked, deleted after 24 hours' }),
    static_renditions: z.array(staticRenditionRequest).optional().meta({ description: "Mux's Static Renditions API; not with mp4_support" }),
    // Mux fields of features not built yet: accepted by the schema, answered 501
    advanced_playback_policies: z.array(createPlaybackIdFields).optional(),
    meta: assetMetadata.optional(),
    generate_shots: z.boolean().optional(),
    directives: z.array(z.object({ id: text(255) }).strict()).optional(),
    copy_overlays: z.boolean().optional(),
  })
  .strict()
  .meta({ allOf: [{ not: { required: ['input', 'inputs'] } }, { not: { required: ['playback_policy', 'playback_policies'] } }] });

type AssetSettingsFields = z.output<typeof assetSettingsObject>;

/** At most one of each pair of names. */
function refuseBothNames(body: AssetSettingsFields, ctx: z.RefinementCtx): void {
  if (body.input !== undefined && body.inputs !== undefined) ctx.addIssue({ code: 'custom', path: ['inputs'], message: 'give input or inputs, not both' });
  if (body.playback_policy !== undefined && body.playback_policies !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['playback_policies'], message: 'give playback_policy or playback_policies, not both' });
  }
}

/** In the document: the inputs of a new asset, as a URL or a non-empty array whose inputs each have a url. */
const inputsWithUrls = { anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: { required: ['url'] } }] };

/** POST /video/v1/assets: the settings with the main input's url required. */
export const createAssetBody = assetSettingsObject
  .meta({
    allOf: [
      { not: { required: ['input', 'inputs'] } },
      { not: { required: ['playback_policy', 'playback_policies'] } },
      { anyOf: [{ required: ['input'] }, { required: ['inputs'] }] },
      { properties: { input: inputsWithUrls, inputs: inputsWithUrls } },
    ],
  })
  .superRefine((body, ctx) => {
    refuseBothNames(body, ctx);
    const given = body.inputs ?? body.input;
    const field = body.inputs !== undefined ? 'inputs' : 'input';
    if (given === undefined || (Array.isArray(given) && given.length === 0)) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'is required (the URL of a media file)' });
    } else if (Array.isArray(given) && given[0].url === undefined) {
      ctx.addIssue({ code: 'custom', path: [field, 0, 'url'], message: 'is required' });
    }
    if (Array.isArray(given)) refuseMisplacedClipFields(given, field, ctx);
  });

/**
 * Clips (spec 2.2): the `svc://assets/{id}` URL only as the first input, `start_time`/`end_time` only
 * with it, the end after the start. The assets service checks the source and the times against it.
 */
function refuseMisplacedClipFields(inputs: AssetInputBody[], field: string, ctx: z.RefinementCtx): void {
  inputs.forEach((input, i) => {
    const clip = input.url !== undefined && isClipUrl(input.url);
    if (i > 0 && clip) ctx.addIssue({ code: 'custom', path: [field, i, 'url'], message: 'a clip (svc://assets/{asset_id}) must be the first input' });
    for (const name of ['start_time', 'end_time'] as const) {
      if (input[name] !== undefined && !(i === 0 && clip)) {
        ctx.addIssue({ code: 'custom', path: [field, i, name], message: 'only for clips (a first input whose url is svc://assets/{asset_id})' });
      }
    }
    if (i === 0 && clip && input.start_time !== undefined && input.end_time !== undefined && input.start_time >= input.end_time) {
      ctx.addIssue({ code: 'custom', path: [field, 0, 'end_time'], message: 'must be after start_time' });
    }
  });
}

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

/** Mux's limit on an asset's length (12 hours): the latest thumbnail_time there is. */
export const THUMBNAIL_TIME_MAX = 43200;

/**
 * PATCH /video/v1/assets/{id}: at least one field; passthrough and thumbnail_time (the assets service
 * also checks thumbnail_time against the asset's duration once known); Mux's meta is answered 501.
 */
export const updateAssetBody = z
  .object({
    passthrough: passthroughText.optional().meta({ description: 'An empty string clears it' }),
    meta: assetMetadata.optional(),
    thumbnail_time: z.number().min(0).max(THUMBNAIL_TIME_MAX).optional().meta({
      description:
        'Seconds into the asset of a thumbnail requested without a time: 0 to 43200, and within the asset’s duration once known (stored as given while it is being prepared). DELETE …/thumbnail-time unsets it',
    }),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { error: 'give at least one of passthrough, meta, thumbnail_time' })
  .meta({ minProperties: 1 });

export const assetListQuery = pagingQuery().extend({
  live_stream_id: z.string().optional().meta({ description: 'Only assets recorded from this live stream' }),
  upload_id: z.string().optional().meta({ description: 'Only the asset made from this direct upload' }),
  cursor: z.string().optional().meta({ description: 'The `next_cursor` of the previous page (takes the place of `page`)' }),
});

/** POST …/playback-ids. */
export const createPlaybackIdBody = createPlaybackIdFields;

export const inputInfoSchema = z.object({
  settings: assetInputSchema.meta({ description: 'The settings applied to this input (spec 2.2 Input)' }),
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
