import { live } from '@platform/proto';
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
