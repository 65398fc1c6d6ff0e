import { HTTP_URL_PATTERN, LANGUAGE_CODE_PATTERN } from '@platform/api-rules';
import { trackSchema } from '@platform/api-shapes';
import { z } from 'zod';
import { passthroughText, text } from '../validation/text';
import { dataOf } from '../wire/wire';
import { generatedSubtitleSettings } from './assets.schemas';

/** POST /video/v1/assets/{id}/tracks (spec 4.2, the SDK's AssetCreateTrackParams). */
export const createTrackBody = z
  .object({
    url: z
      .string()
      .regex(HTTP_URL_PATTERN, { error: 'must be an http or https URL' })
      .meta({ description: 'Text tracks: a SubRip (SRT) or WebVTT file; audio tracks: an audio file (M4A, WAV, MP3, …)' }),
    type: z.enum(['text', 'audio']),
    text_type: z.enum(['subtitles']).optional().meta({ description: 'Text tracks; default subtitles' }),
    language_code: z.string().regex(LANGUAGE_CODE_PATTERN, { error: 'must be a BCP 47 language code such as "en" or "es-MX"' }),
    name: text(255).optional().meta({ description: 'Unique among the asset’s text (or audio) tracks; default: the language’s name' }),
    closed_captions: z.boolean().optional().meta({ description: 'Text tracks: subtitles for the deaf and hard of hearing (SDH)' }),
    passthrough: passthroughText.optional(),
  })
  .strict();

/** POST …/tracks/{audio track id}/generate-subtitles. */
export const generateSubtitlesBody = z
  .object({
    generated_subtitles: z.array(generatedSubtitleSettings).min(1).max(10),
  })
  .strict();

export const trackResponse = dataOf(trackSchema);
/** Mux answers generate-subtitles with the new tracks, one per entry (the SDK's `Array<Track>`). */
export const trackListResponse = z.object({ data: z.array(trackSchema) });

export type CreateTrackBody = z.output<typeof createTrackBody>;
export type GenerateSubtitlesBody = z.output<typeof generateSubtitlesBody>;
