import { HTTP_URL_PATTERN, LANGUAGE_CODE_PATTERN, RTMP_URL_PATTERN } from '@platform/api-rules';
import { LATENCY_MODES, liveStreamSchema, simulcastTargetSchema } from '@platform/api-shapes';
import { z } from 'zod';
import { passthroughText, text } from '../validation/text';
import { assetSettingsObject } from '../assets/assets.schemas';
import { pagingQuery } from '../validation/paging';
import { dataOf } from '../wire/wire';

/** The response shapes (live stream, simulcast target) are @platform/api-shapes': the webhooks' data too. */
const rtmpUrl = z
  .string()
  .regex(RTMP_URL_PATTERN, { error: 'must be an rtmp:// or rtmps:// URL' })
  .meta({ description: 'RTMP URL of the service, application included (rtmp://live.example.com/app)' });
/** An empty string clears the slate image (PATCH). */
const slateUrl = z
  .string()
  .regex(new RegExp(`${HTTP_URL_PATTERN.source}|^$`), { error: 'must be an http or https URL' })
  .meta({ description: 'http(s) URL of a PNG or JPEG image shown while the encoder is away; an empty string clears it' });

export const embeddedSubtitleInput = z
  .object({
    name: text(255).optional(),
    passthrough: passthroughText.optional(),
    language_code: z
      .string()
      .regex(LANGUAGE_CODE_PATTERN, { error: 'must be a BCP 47 language code such as "en" or "es-MX"' })
      .optional()
      .meta({ description: 'BCP 47; default en' }),
    language_channel: z.enum(['cc1', 'cc2', 'cc3', 'cc4']).optional().meta({ description: 'CEA-608 channel; default cc1' }),
  })
  .strict();

/** One entry per CEA-608 channel: at most 4, each channel once (the service checks the channels). */
const embeddedSubtitles = z.array(embeddedSubtitleInput).max(4);

export const generatedSubtitleInput = z
  .object({
    name: text(255).optional(),
    passthrough: passthroughText.optional(),
    language_code: z.enum(['en', 'en-US']).optional().meta({ description: 'Default en' }),
    transcription_vocabulary_ids: z.array(z.string()).optional(),
  })
  .strict();

export const simulcastTargetInputSchema = z.object({ passthrough: passthroughText.optional(), stream_key: z.string().optional(), url: rtmpUrl }).strict();

/** new_asset_settings of a live stream: asset settings whose main input has no url (the stream is it). */
export const liveAssetSettingsBody = assetSettingsObject.superRefine((body, ctx) => {
  const given = body.inputs ?? body.input;
  const field = body.inputs !== undefined ? 'inputs' : 'input';
  if (typeof given === 'string' || (Array.isArray(given) && given[0]?.url !== undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: typeof given === 'string' ? [field] : [field, 0, 'url'],
      message: 'must be omitted for a live stream (the stream is the main input)',
    });
  }
});

const playbackPolicy = z.enum(['public', 'signed']);
const reconnectWindow = z.number().min(0).max(1800).meta({ description: 'Seconds, 0 to 1800; default 60 (standard latency) or 0 (reduced, low)' });
const maxContinuous = z.int().min(60).max(43200).meta({ description: 'Seconds, 60 to 43200; default 43200' });

/** POST /video/v1/live-streams (spec 4.3). */
export const createLiveStreamBody = z
  .object({
    playback_policy: z.union([z.array(playbackPolicy), playbackPolicy]).optional(),
    playback_policies: z.union([z.array(playbackPolicy), playbackPolicy]).optional(),
    new_asset_settings: liveAssetSettingsBody.optional(),
    reconnect_window: reconnectWindow.optional(),
    use_slate_for_standard_latency: z.boolean().optional(),
    reconnect_slate_url: slateUrl.optional(),
    passthrough: passthroughText.optional(),
    audio_only: z.boolean().optional(),
    embedded_subtitles: embeddedSubtitles.optional(),
    generated_subtitles: z.array(generatedSubtitleInput).max(1).optional(),
    reduced_latency: z.boolean().optional().meta({ description: 'Deprecated: use latency_mode' }),
    latency_mode: z.enum(LATENCY_MODES).optional().meta({ description: 'Default standard' }),
    test: z.boolean().optional(),
    simulcast_targets: z.array(simulcastTargetInputSchema).optional(),
    max_continuous_duration: maxContinuous.optional(),
  })
  .strict()
  .meta({ not: { required: ['playback_policy', 'playback_policies'] } })
  .superRefine((body, ctx) => {
    if (body.playback_policy !== undefined && body.playback_policies !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['playback_policies'], message: 'give playback_policy or playback_policies, not both' });
    }
  });

/** PATCH: the spec's subset; an empty reconnect_slate_url clears it, an empty passthrough too. */
export const updateLiveStreamBody = z
  .object({
    passthrough: passthroughText.optional(),
    latency_mode: z.enum(LATENCY_MODES).optional(),
    reconnect_window: reconnectWindow.optional(),
    use_slate_for_standard_latency: z.boolean().optional(),
    reconnect_slate_url: slateUrl.optional(),
    max_continuous_duration: maxContinuous.optional(),
  })
  .strict();

export const embeddedSubtitlesBody = z.object({ embedded_subtitles: embeddedSubtitles }).strict();
export const generatedSubtitlesBody = z.object({ generated_subtitles: z.array(generatedSubtitleInput).max(1) }).strict();

export const liveStreamListQuery = pagingQuery().extend({
  stream_key: z.string().optional().meta({ description: 'Only the stream with this key' }),
  status: z.enum(['active', 'idle', 'disabled']).optional(),
});

export const liveStreamResponse = dataOf(liveStreamSchema);
export const liveStreamListResponse = z.object({ data: z.array(liveStreamSchema) });
export const simulcastTargetResponse = dataOf(simulcastTargetSchema);
export const emptyDataResponse = z.object({ data: z.object({}) });

export type CreateLiveStreamBody = z.output<typeof createLiveStreamBody>;
export type UpdateLiveStreamBody = z.output<typeof updateLiveStreamBody>;
export type LiveStreamListQuery = z.output<typeof liveStreamListQuery>;
export type SimulcastTargetInputBody = z.output<typeof simulcastTargetInputSchema>;
