import { unixSeconds } from '@platform/ids';
import { assets } from '@platform/proto';
import { PlaybackIdEntity } from '../playback-ids/playback-id.entity';
import { AssetEntity } from './asset.entity';

export function toPlaybackIdMessage(p: PlaybackIdEntity): assets.PlaybackId {
  return { id: p.id, policy: p.policy };
}

export function toAssetMessage(a: AssetEntity, playbackIds: PlaybackIdEntity[]): assets.Asset {
  const message: assets.Asset = {
    id: a.id,
    created_at: Number(unixSeconds(a.createdAt)),
    status: a.status,
    max_resolution_tier: a.maxResolutionTier,
    encoding_tier: a.encodingTier,
    video_quality: a.videoQuality,
    playback_ids: playbackIds.map(toPlaybackIdMessage),
    tracks: a.tracks.map((t) => ({ ...t })),
    master_access: a.masterAccess,
    mp4_support: a.mp4Support,
    normalize_audio: a.normalizeAudio,
    non_standard_input_reasons: { ...(a.nonStandardInputReasons ?? {}) },
    test: a.test,
    ingest_type: a.ingestType,
    recording_times: (a.recordingTimes ?? []).map((r) => ({ ...r })),
  };
  if (a.updatedAt !== null) message.updated_at = Number(unixSeconds(a.updatedAt));
  if (a.duration !== null) message.duration = a.duration;
  if (a.maxStoredResolution !== null) message.max_stored_resolution = a.maxStoredResolution;
  if (a.resolutionTier !== null) message.resolution_tier = a.resolutionTier;
  if (a.maxStoredFrameRate !== null) message.max_stored_frame_rate = a.maxStoredFrameRate;
  if (a.aspectRatio !== null) message.aspect_ratio = a.aspectRatio;
  if (a.errors !== null) message.errors = { type: a.errors.type, messages: [...a.errors.messages] };
  if (a.uploadId !== null) message.upload_id = a.uploadId;
  if (a.liveStreamId !== null) message.live_stream_id = a.liveStreamId;
  if (a.passthrough !== null) message.passthrough = a.passthrough;
  return message;
}

/** Mux's `progress` object, derived from the status (the platform does not measure a percentage). */
export interface AssetProgress {
  state: 'ingesting' | 'transcoding' | 'completed' | 'errored';
  progress: number;
}

export function progressOf(status: string, nonStandard: boolean): AssetProgress {
  if (status === 'ready') return { state: 'completed', progress: 100 };
  if (status === 'errored') return { state: 'errored', progress: -1 };
  return { state: nonStandard ? 'transcoding' : 'ingesting', progress: 0 };
}

/** Track as the REST API shows it: absent fields left out. */
export type TrackBody = assets.Track;

/**
 * Event data of video.asset.*: the asset as the REST API shows it (the gateway's
 * asset mapper writes the same body): `*_at` as Unix-second strings, absent fields left out,
 * `test` and `normalize_audio` only when true, `errors` only when errored.
 */
export interface AssetEventData {
  id: string;
  created_at: string;
  updated_at?: string;
  status: string;
  progress: AssetProgress;
  duration?: number;
  max_stored_resolution?: string;
  resolution_tier?: string;
  max_resolution_tier: string;
  encoding_tier: string;
  video_quality: string;
  max_stored_frame_rate?: number;
  aspect_ratio?: string;
  playback_ids?: assets.PlaybackId[];
  tracks?: TrackBody[];
  errors?: assets.AssetErrors;
  upload_id?: string;
  live_stream_id?: string;
  passthrough?: string;
  master_access: string;
  mp4_support: string;
  normalize_audio?: true;
  non_standard_input_reasons?: Record<string, string>;
  test?: true;
  ingest_type: string;
  is_live?: boolean;
  recording_times?: assets.RecordingTime[];
}

export function toAssetEventData(a: AssetEntity, playbackIds: PlaybackIdEntity[]): AssetEventData {
  const reasons = a.nonStandardInputReasons ?? {};
  const nonStandard = Object.keys(reasons).length > 0;
  const data: AssetEventData = {
    id: a.id,
    created_at: unixSeconds(a.createdAt),
    status: a.status,
    progress: progressOf(a.status, nonStandard),
    max_resolution_tier: a.maxResolutionTier,
    encoding_tier: a.encodingTier,
    video_quality: a.videoQuality,
    master_access: a.masterAccess,
    mp4_support: a.mp4Support,
    ingest_type: a.ingestType,
  };
  if (a.updatedAt !== null) data.updated_at = unixSeconds(a.updatedAt);
  if (a.duration !== null) data.duration = a.duration;
  if (a.maxStoredResolution !== null) data.max_stored_resolution = a.maxStoredResolution;
  if (a.resolutionTier !== null) data.resolution_tier = a.resolutionTier;
  if (a.maxStoredFrameRate !== null) data.max_stored_frame_rate = a.maxStoredFrameRate;
  if (a.aspectRatio !== null) data.aspect_ratio = a.aspectRatio;
  if (playbackIds.length > 0) data.playback_ids = playbackIds.map(toPlaybackIdMessage);
  if (a.tracks.length > 0) data.tracks = a.tracks.map(toTrackBody);
  if (a.status === 'errored' && a.errors !== null) data.errors = { type: a.errors.type, messages: [...a.errors.messages] };
  if (a.uploadId !== null) data.upload_id = a.uploadId;
  if (a.liveStreamId !== null) data.live_stream_id = a.liveStreamId;
  if (a.ingestType === 'live_rtmp' || a.ingestType === 'live_srt') data.is_live = a.status === 'preparing';
  if (a.recordingTimes && a.recordingTimes.length > 0) data.recording_times = a.recordingTimes.map((r) => ({ ...r }));
  if (a.passthrough !== null) data.passthrough = a.passthrough;
  if (a.normalizeAudio) data.normalize_audio = true;
  if (nonStandard) data.non_standard_input_reasons = { ...reasons };
  if (a.test) data.test = true;
  return data;
}

export function toTrackBody(t: assets.Track): TrackBody {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined && v !== null)) as TrackBody;
}

/** Event data of video.asset.track.*: the track as the REST API shows it, with its asset's id (as Mux sends it). */
export function toTrackEventData(assetId: string, t: assets.Track): TrackBody & { asset_id: string } {
  return { ...toTrackBody(t), asset_id: assetId };
}
