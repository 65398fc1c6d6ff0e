import { assets } from '@platform/proto';
import { unixSecondsString } from '../wire/wire';
import { AssetBody, AssetSettingsBody, InputInfoBody, PlaybackIdBody, TrackBody } from './assets.schemas';

/** The create body as the assets service takes it (features not built yet were refused before). */
export function toCreateAssetRequest(body: AssetSettingsBody): assets.CreateAssetRequest {
  const inputs = body.inputs ?? body.input ?? [];
  const policies = body.playback_policies ?? body.playback_policy ?? [];
  return {
    input: typeof inputs === 'string' ? [{ url: inputs }] : inputs.map((i) => (i.url !== undefined ? { url: i.url } : {})),
    playback_policy: typeof policies === 'string' ? [policies] : [...policies],
    passthrough: body.passthrough,
    max_resolution_tier: body.max_resolution_tier,
    encoding_tier: body.encoding_tier,
    video_quality: body.video_quality,
    mp4_support: body.mp4_support,
    master_access: body.master_access,
    normalize_audio: body.normalize_audio,
    test: body.test,
  };
}

export function toPlaybackId(p: assets.PlaybackId): PlaybackIdBody {
  return { id: p.id, policy: p.policy as PlaybackIdBody['policy'] };
}

/**
 * Spec 2.1 as Mux writes it: absent fields left out, `*_at` as strings, `errors` only
 * when errored, `test` and `normalize_audio` only when true, `non_standard_input_reasons`
 * only for a non-standard input, and Mux's `progress` derived from the status. The assets
 * service writes the same body as the data of its events.
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
  // spec 2.1: only for assets from live streams, true while the recording is under way
  if (a.ingest_type === 'live_rtmp' || a.ingest_type === 'live_srt') body.is_live = a.status === 'preparing';
  if (a.recording_times && a.recording_times.length > 0) {
    body.recording_times = a.recording_times.map((r) => ({ started_at: r.started_at, duration: r.duration, type: r.type as 'content' | 'slate' }));
  }
  if (a.passthrough !== undefined) body.passthrough = a.passthrough;
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
  return withoutAbsent({ ...t, type: t.type as TrackBody['type'] });
}

export function toInputInfo(info: assets.InputInfo): InputInfoBody {
  const body: InputInfoBody = { settings: withoutAbsent({ url: info.settings?.url }) };
  if (info.file) body.file = { container_format: info.file.container_format, tracks: info.file.tracks.map((t) => withoutAbsent({ ...t })) };
  return body;
}

function withoutAbsent<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}
