/** ffprobe's JSON as we read it lives in @platform/media (the live service reads it too). */
export type { FfprobeFormat, FfprobeOutput, FfprobeStream } from '@platform/media';

/** Keyframe intervals of the first video stream (see `summarizeKeyframes`). */
export interface KeyframeSummary {
  /** Longest distance between two consecutive key frames (or a key frame and the end), seconds. */
  maxIntervalSeconds: number;
  /** Highest average bitrate of one key-frame interval, bits per second. */
  maxIntervalBitrate: number;
}

export type ResolutionTier = 'audio-only' | '720p' | '1080p' | '1440p' | '2160p';
export type MaxResolutionTier = '1080p' | '1440p' | '2160p';
export type MaxStoredResolution = 'Audio only' | 'SD' | 'HD' | 'FHD' | 'UHD';

export interface NonStandardInputReasons {
  video_codec?: string;
  audio_codec?: string;
  video_gop_size?: 'high';
  video_frame_rate?: string;
  video_resolution?: string;
  video_bitrate?: 'high';
  pixel_aspect_ratio?: string;
  video_edit_list?: 'non-standard';
  audio_edit_list?: 'non-standard';
  unexpected_media_file_parameters?: 'non-standard';
  unsupported_pixel_format?: string;
}

export interface VideoTrackInfo {
  type: 'video';
  duration?: number;
  max_width: number;
  max_height: number;
  max_frame_rate: number;
}

export interface AudioTrackInfo {
  type: 'audio';
  duration?: number;
  max_channels: number;
  primary: boolean;
}

export type TrackInfo = VideoTrackInfo | AudioTrackInfo;

/** Spec 000 §4.2 `input-info` `file` object. */
export interface InputFileInfo {
  container_format: string;
  tracks: Array<{
    type: 'video' | 'audio';
    duration?: number;
    width?: number;
    height?: number;
    frame_rate?: number;
    encoding?: string;
    sample_rate?: number;
    sample_size?: number;
    channels?: number;
  }>;
}

/** Display (square-pixel, rotation-applied) size of the stored top rendition. */
export interface StoredVideo {
  width: number;
  height: number;
  frameRate: number; // -1 when undetermined
}

/** The asset fields of spec 000 §2.1 that come from the input file, plus what the encoder needs. */
export interface ProbedAsset {
  duration: number;
  aspect_ratio?: string; // absent for audio-only
  max_stored_frame_rate?: number; // absent for audio-only
  resolution_tier: ResolutionTier;
  max_stored_resolution: MaxStoredResolution;
  tracks: TrackInfo[];
  non_standard_input_reasons?: NonStandardInputReasons;
  input_info: InputFileInfo;
  /** What the ladder scales to; absent for audio-only. */
  video?: StoredVideo;
  hasAudio: boolean;
  /** True when a stream copy of the input is a valid playable H.264/AAC rendition. */
  standard: boolean;
}

export type ProbeErrorType = 'invalid_input';

export type ProbeResult = { ok: true; asset: ProbedAsset } | { ok: false; error: { type: ProbeErrorType; messages: string[] } };
