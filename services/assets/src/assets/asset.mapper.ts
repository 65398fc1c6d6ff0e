import { unixSeconds } from '@platform/ids';
import { assets } from '@platform/proto';
import { PlaybackIdEntity } from '../playback-ids/playback-id.entity';
import { publicTrack } from '../tracks/stored-track';
import { toMasterMessage, toStaticRenditionsMessage } from '../static-renditions/static-rendition.mapper';
import { AssetEntity, StoredInput } from './asset.entity';

/** A stored input as the proto message (repeated fields present, even empty). */
export function toInputMessage(input: StoredInput): assets.AssetInput {
  return { ...structuredClone(input), generated_subtitles: structuredClone(input.generated_subtitles ?? []) };
}

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
    tracks: a.tracks.map(publicTrack),
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
  if (a.sourceAssetId !== null) message.source_asset_id = a.sourceAssetId;
  if (a.passthrough !== null) message.passthrough = a.passthrough;
  if (a.thumbnailTime !== null) message.thumbnail_time = a.thumbnailTime;
  const staticRenditions = toStaticRenditionsMessage(a);
  if (staticRenditions) message.static_renditions = staticRenditions;
  const master = toMasterMessage(a);
  if (master) message.master = master;
  return message;
}
