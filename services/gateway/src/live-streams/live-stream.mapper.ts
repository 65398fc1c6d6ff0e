import { live, newAssetSettingsBody } from '@platform/proto';
import { unixSecondsString } from '../wire/wire';
import { LiveStreamBody, SimulcastTargetBody } from './live-streams.schemas';

export function toSimulcastTarget(t: live.SimulcastTarget): SimulcastTargetBody {
  return {
    id: t.id,
    ...(t.passthrough !== undefined ? { passthrough: t.passthrough } : {}),
    status: t.status as SimulcastTargetBody['status'],
    ...(t.stream_key !== undefined ? { stream_key: t.stream_key } : {}),
    url: t.url,
    ...(t.error_severity !== undefined ? { error_severity: t.error_severity as SimulcastTargetBody['error_severity'] } : {}),
  };
}

/**
 * Spec 2.3 as Mux writes it: absent and empty fields left out, flags only when true, the
 * deprecated `reduced_latency` derived from `latency_mode`. The live service writes the same body
 * as the data of its events.
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
    ...(s.playback_ids.length > 0 ? { playback_ids: s.playback_ids.map((p) => ({ id: p.id, policy: p.policy as 'public' | 'signed' })) } : {}),
    ...(s.new_asset_settings ? { new_asset_settings: newAssetSettingsBody(s.new_asset_settings) } : {}),
    ...(s.passthrough !== undefined ? { passthrough: s.passthrough } : {}),
    ...(s.audio_only ? { audio_only: true as const } : {}),
    ...(s.embedded_subtitles.length > 0 ? { embedded_subtitles: s.embedded_subtitles.map((e) => ({ ...e })) as LiveStreamBody['embedded_subtitles'] } : {}),
    ...(s.generated_subtitles.length > 0 ? { generated_subtitles: s.generated_subtitles.map((g) => ({ ...g })) as LiveStreamBody['generated_subtitles'] } : {}),
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
