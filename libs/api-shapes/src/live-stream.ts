import { live } from '@platform/proto';
import { z } from 'zod';
import { newAssetSettingsBody, newAssetSettingsSchema } from './new-asset-settings';
import { playbackIdSchema, toPlaybackId } from './playback-id';
import { toSimulcastTarget, simulcastTargetSchema } from './simulcast-target';
import { unixSecondsSchema, unixSecondsString } from './wire';

export const LATENCY_MODES = ['low', 'reduced', 'standard'] as const;
export const LIVE_STREAM_STATUSES = ['active', 'idle', 'disabled'] as const;

/** An `embedded_subtitles` entry as the stream shows it (defaults filled in). */
export const embeddedSubtitleSchema = z.object({
  name: z.string().optional(),
  passthrough: z.string().optional(),
  language_code: z.string().optional().meta({ description: 'BCP 47; default en' }),
  language_channel: z.enum(['cc1', 'cc2', 'cc3', 'cc4']).optional().meta({ description: 'CEA-608 channel; default cc1' }),
});

/** A `generated_subtitles` entry as the stream shows it (defaults filled in). */
export const generatedSubtitleSchema = z.object({
  name: z.string().optional(),
  passthrough: z.string().optional(),
  language_code: z.enum(['en', 'en-US']).optional().meta({ description: 'Default en' }),
  transcription_vocabulary_ids: z.array(z.string()).optional(),
});

/** Spec 2.3. */
export const liveStreamSchema = z.object({
  id: z.string(),
  created_at: unixSecondsSchema,
  stream_key: z.string().meta({ description: 'A credential: whoever holds it can stream' }),
  srt_passphrase: z.string(),
  status: z.enum(LIVE_STREAM_STATUSES),
  active_ingest_protocol: z.enum(['rtmp', 'srt']).optional(),
  active_asset_id: z.string().optional(),
  recent_asset_ids: z.array(z.string()).optional(),
  playback_ids: z.array(playbackIdSchema).optional(),
  new_asset_settings: newAssetSettingsSchema.optional(),
  passthrough: z.string().optional(),
  audio_only: z.literal(true).optional(),
  embedded_subtitles: z.array(embeddedSubtitleSchema).optional(),
  generated_subtitles: z.array(generatedSubtitleSchema).optional(),
  reconnect_window: z.number(),
  use_slate_for_standard_latency: z.literal(true).optional(),
  reconnect_slate_url: z.string().optional(),
  latency_mode: z.enum(LATENCY_MODES),
  reduced_latency: z.boolean(),
  simulcast_targets: z.array(simulcastTargetSchema).optional(),
  test: z.literal(true).optional(),
  max_continuous_duration: z.int(),
});

export type LiveStreamBody = z.infer<typeof liveStreamSchema>;

/**
 * Spec 2.3 as Mux writes it: absent and empty fields left out, flags only when true, the
 * deprecated `reduced_latency` derived from `latency_mode`. The API body and the data of
 * `video.live_stream.*`.
 */
export function toLiveStream(s: live.LiveStream): LiveStreamBody {
  return {
    id: s.id,
    created_at: unixSecondsString(s.created_at),
    stream_key: s.stream_key,
    srt_passphrase: s.srt_passphrase,
    status: s.status as LiveStreamBody['status'],
    ...(s.active_ingest_protocol ? { active_ingest_protocol: s.active_ingest_protocol as 'rtmp' | 'srt' } : {}),
    ...(s.active_asset_id ? { active_asset_id: s.active_asset_id } : {}),
    ...(s.recent_asset_ids.length > 0 ? { recent_asset_ids: [...s.recent_asset_ids] } : {}),
    ...(s.playback_ids.length > 0 ? { playback_ids: s.playback_ids.map(toPlaybackId) } : {}),
    ...(s.new_asset_settings ? { new_asset_settings: newAssetSettingsBody(s.new_asset_settings) } : {}),
    ...(s.passthrough !== undefined ? { passthrough: s.passthrough } : {}),
    ...(s.audio_only ? { audio_only: true as const } : {}),
    ...(s.embedded_subtitles.length > 0 ? { embedded_subtitles: s.embedded_subtitles.map((e) => ({ ...e })) as LiveStreamBody['embedded_subtitles'] } : {}),
    ...(s.generated_subtitles.length > 0
      ? {
          generated_subtitles: s.generated_subtitles.map((g) => ({
            ...g,
            transcription_vocabulary_ids: [...g.transcription_vocabulary_ids],
          })) as LiveStreamBody['generated_subtitles'],
        }
      : {}),
    reconnect_window: s.reconnect_window,
    ...(s.use_slate_for_standard_latency ? { use_slate_for_standard_latency: true as const } : {}),
    ...(s.reconnect_slate_url !== undefined ? { reconnect_slate_url: s.reconnect_slate_url } : {}),
    latency_mode: s.latency_mode as LiveStreamBody['latency_mode'],
    reduced_latency: s.latency_mode === 'reduced',
    ...(s.simulcast_targets.length > 0 ? { simulcast_targets: s.simulcast_targets.map(toSimulcastTarget) } : {}),
    ...(s.test ? { test: true as const } : {}),
    max_continuous_duration: s.max_continuous_duration,
  };
}
