import { unixSeconds } from '@platform/ids';
import { live, newAssetSettingsBody } from '@platform/proto';
import { LivePlaybackIdEntity, SimulcastTargetEntity } from './live-stream.entity';
import { LiveStreamRecord } from './live-stream.repository';

export function toPlaybackIdMessage(p: LivePlaybackIdEntity): { id: string; policy: string } {
  return { id: p.id, policy: p.policy };
}

/** A target as the API shows it: `error_severity` only when errored. */
export function toSimulcastTargetMessage(t: SimulcastTargetEntity): live.SimulcastTarget {
  return {
    id: t.id,
    ...(t.passthrough !== null ? { passthrough: t.passthrough } : {}),
    status: t.status,
    ...(t.streamKey !== null ? { stream_key: t.streamKey } : {}),
    url: t.url,
    ...(t.status === 'errored' && t.errorSeverity ? { error_severity: t.errorSeverity } : {}),
  };
}

export function toLiveStreamMessage({ stream: s, playbackIds, targets }: LiveStreamRecord): live.LiveStream {
  return {
    id: s.id,
    created_at: Math.floor(s.createdAt.getTime() / 1000),
    stream_key: s.streamKey,
    srt_passphrase: s.srtPassphrase,
    ...(s.status === 'active' && s.activeIngestProtocol ? { active_ingest_protocol: s.activeIngestProtocol } : {}),
    ...(s.activeAssetId ? { active_asset_id: s.activeAssetId } : {}),
    recent_asset_ids: [...s.recentAssetIds],
    status: s.status,
    playback_ids: playbackIds.map(toPlaybackIdMessage),
    ...(s.newAssetSettings ? { new_asset_settings: structuredClone(s.newAssetSettings) } : {}),
    ...(s.passthrough !== null ? { passthrough: s.passthrough } : {}),
    audio_only: s.audioOnly,
    embedded_subtitles: structuredClone(s.embeddedSubtitles),
    generated_subtitles: structuredClone(s.generatedSubtitles),
    reconnect_window: s.reconnectWindow,
    use_slate_for_standard_latency: s.useSlateForStandardLatency,
    ...(s.reconnectSlateUrl !== null ? { reconnect_slate_url: s.reconnectSlateUrl } : {}),
    latency_mode: s.latencyMode,
    simulcast_targets: targets.map(toSimulcastTargetMessage),
    test: s.test,
    max_continuous_duration: s.maxContinuousDuration,
  };
}

/**
 * The live stream as the REST API shows it (the data of its events), Mux's way: `created_at` a
 * string, absent and empty fields left out, flags only when true, `reduced_latency` derived.
 */
export function toLiveStreamEventData(record: LiveStreamRecord): Record<string, unknown> {
  const m = toLiveStreamMessage(record);
  return {
    id: m.id,
    created_at: unixSeconds(record.stream.createdAt),
    stream_key: m.stream_key,
    srt_passphrase: m.srt_passphrase,
    status: m.status,
    ...(m.active_ingest_protocol ? { active_ingest_protocol: m.active_ingest_protocol } : {}),
    ...(m.active_asset_id ? { active_asset_id: m.active_asset_id } : {}),
    ...(m.recent_asset_ids.length > 0 ? { recent_asset_ids: m.recent_asset_ids } : {}),
    ...(m.playback_ids.length > 0 ? { playback_ids: m.playback_ids } : {}),
    ...(m.new_asset_settings ? { new_asset_settings: newAssetSettingsBody(m.new_asset_settings) } : {}),
    ...(m.passthrough !== undefined ? { passthrough: m.passthrough } : {}),
    ...(m.audio_only ? { audio_only: true } : {}),
    ...(m.embedded_subtitles.length > 0 ? { embedded_subtitles: m.embedded_subtitles } : {}),
    ...(m.generated_subtitles.length > 0 ? { generated_subtitles: m.generated_subtitles } : {}),
    reconnect_window: m.reconnect_window,
    ...(m.use_slate_for_standard_latency ? { use_slate_for_standard_latency: true } : {}),
    ...(m.reconnect_slate_url !== undefined ? { reconnect_slate_url: m.reconnect_slate_url } : {}),
    latency_mode: m.latency_mode,
    reduced_latency: m.latency_mode === 'reduced',
    ...(m.simulcast_targets.length > 0 ? { simulcast_targets: m.simulcast_targets } : {}),
    ...(m.test ? { test: true } : {}),
    max_continuous_duration: m.max_continuous_duration,
  };
}
