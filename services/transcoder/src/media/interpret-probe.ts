import { gcd, resolutionTierOfPixels, storedResolutionName } from '@platform/media';
import { fitToTier } from './resolution';
import {
  FfprobeOutput,
  FfprobeStream,
  InputFileInfo,
  KeyframeSummary,
  MaxResolutionTier,
  NonStandardInputReasons,
  ProbeResult,
  TrackInfo,
} from './probe.types';

export const MAX_DURATION_SECONDS = 12 * 60 * 60;
export const MAX_STANDARD_GOP_SECONDS = 20;
export const MAX_STANDARD_GOP_BITRATE = 16_000_000;
const MAX_STANDARD_DIMENSION = 2048;
const STANDARD_PIXEL_FORMATS = ['yuv420p', 'yuvj420p'];
/** A stream of an MP4/MOV starting later than this is treated as shifted by an edit list. */
const EDIT_LIST_TOLERANCE_SECONDS = 0.1;

export interface InterpretOptions {
  maxResolutionTier?: MaxResolutionTier; // default '1080p'
  /** From a packet scan (`buildKeyframeProbeArgs` + `summarizeKeyframes`); without it GOP rules are not checked. */
  keyframes?: KeyframeSummary;
}

/** Turns ffprobe's reading of an input into the asset fields of spec 000 §2.1 and §4.2 input-info. */
export function interpretProbe(probe: FfprobeOutput, options: InterpretOptions = {}): ProbeResult {
  const cap = options.maxResolutionTier ?? '1080p';
  const streams = probe.streams ?? [];
  const video = primaryVideoStream(probe);
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video && !audio) {
    return invalid('The input file has no video or audio track.');
  }
  const durationOrUndefined = containerDuration(probe, [video, audio]);
  const duration = durationOrUndefined ?? 0;
  if (duration > MAX_DURATION_SECONDS) {
    return invalid(`The input file is ${duration.toFixed(1)} seconds long; the maximum is 12 hours (43200 seconds).`);
  }

  const reasons: NonStandardInputReasons = {};
  if (durationOrUndefined === undefined) reasons.unexpected_media_file_parameters = 'non-standard';
  const tracks: TrackInfo[] = [];
  let stored: { width: number; height: number; frameRate: number } | undefined;
  let aspectRatio: string | undefined;

  if (video) {
    const display = displaySize(video);
    if (!display) return invalid('The video track has no frame size.');
    const frameRate = frameRateOf(video);
    const size = fitToTier(display.width, display.height, cap);
    stored = { ...size, frameRate };
    aspectRatio = display.aspectRatio;
    tracks.push({
      type: 'video',
      ...optionalDuration(streamDuration(video) ?? durationOrUndefined),
      max_width: size.width,
      max_height: size.height,
      max_frame_rate: frameRate,
    });
    addVideoReasons(reasons, video, frameRate, probe, options.keyframes);
  }
  if (audio) {
    tracks.push({
      type: 'audio',
      ...optionalDuration(streamDuration(audio) ?? durationOrUndefined),
      // The ladder encodes stereo AAC, so more channels are not stored.
      max_channels: Math.min(audio.channels ?? 2, 2),
      primary: true,
    });
    if (audio.codec_name !== 'aac') reasons.audio_codec = audio.codec_name ?? 'unknown';
    if (isShiftedByEditList(audio, probe)) reasons.audio_edit_list = 'non-standard';
  }

  const standard = Object.keys(reasons).length === 0;
  const tier = stored ? minTier(resolutionTierOfPixels(stored.width * stored.height), cap) : 'audio-only';
  return {
    ok: true,
    asset: {
      duration,
      ...(aspectRatio ? { aspect_ratio: aspectRatio } : {}),
      ...(stored ? { max_stored_frame_rate: stored.frameRate } : {}),
      resolution_tier: tier,
      max_stored_resolution: stored ? storedResolutionName(stored.width, stored.height) : 'Audio only',
      tracks,
      ...(standard ? {} : { non_standard_input_reasons: reasons }),
      input_info: inputInfo(probe, streams),
      ...(stored ? { video: stored } : {}),
      hasAudio: audio !== undefined,
      standard,
    },
  };
}

/** The video stream that is ingested: the first one that is not cover art. */
export function primaryVideoStream(probe: FfprobeOutput): FfprobeStream | undefined {
  return probe.streams?.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
}

function invalid(message: string): ProbeResult {
  return { ok: false, error: { type: 'invalid_input', messages: [message] } };
}

function addVideoReasons(
  reasons: NonStandardInputReasons,
  video: FfprobeStream,
  frameRate: number,
  probe: FfprobeOutput,
  keyframes: KeyframeSummary | undefined,
): void {
  if (video.codec_name !== 'h264') reasons.video_codec = video.codec_name ?? 'unknown';
  if (frameRate === -1 || frameRate < 5 || frameRate > 120) reasons.video_frame_rate = String(frameRate);
  const width = video.width ?? 0;
  const height = video.height ?? 0;
  if (width > MAX_STANDARD_DIMENSION || height > MAX_STANDARD_DIMENSION) reasons.video_resolution = `${width}x${height}`;
  const sar = parseRatio(video.sample_aspect_ratio, ':');
  if (sar && sar.num !== sar.den) reasons.pixel_aspect_ratio = video.sample_aspect_ratio;
  if (video.pix_fmt && !STANDARD_PIXEL_FORMATS.includes(video.pix_fmt)) reasons.unsupported_pixel_format = video.pix_fmt;
  if (isShiftedByEditList(video, probe)) reasons.video_edit_list = 'non-standard';
  if (keyframes && keyframes.maxIntervalSeconds > MAX_STANDARD_GOP_SECONDS) reasons.video_gop_size = 'high';
  if (keyframes && keyframes.maxIntervalBitrate > MAX_STANDARD_GOP_BITRATE) reasons.video_bitrate = 'high';
}

/**
 * ffprobe applies MP4/MOV edit lists, so only their visible effect can be seen: a stream that starts
 * later (or earlier) than the file's zero. Other containers (TS, Matroska) carry start offsets that are
 * not edit lists, so they are never flagged.
 */
function isShiftedByEditList(stream: FfprobeStream, probe: FfprobeOutput): boolean {
  if (!probe.format?.format_name?.split(',').includes('mov')) return false;
  const start = Number(stream.start_time);
  return Number.isFinite(start) && Math.abs(start) > EDIT_LIST_TOLERANCE_SECONDS;
}

function parseRatio(value: string | undefined, separator: string): { num: number; den: number } | undefined {
  if (!value) return undefined;
  const [num, den] = value.split(separator).map(Number);
  if (!Number.isFinite(num) || !Number.isFinite(den) || num <= 0 || den <= 0) return undefined;
  return { num, den };
}

/** Average frame rate rounded to 3 decimals (29.97), or -1 when ffprobe could not tell. */
export function frameRateOf(video: FfprobeStream): number {
  const rate = parseRatio(video.avg_frame_rate, '/');
  if (!rate) return -1;
  return Math.round((rate.num / rate.den) * 1000) / 1000;
}

/** Display rotation in degrees (0, 90, 180, 270) from the display matrix or the legacy `rotate` tag. */
export function rotationOf(video: FfprobeStream): number {
  const fromSideData = video.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const degrees = fromSideData ?? Number(video.tags?.rotate ?? 0);
  return ((Math.round(degrees) % 360) + 360) % 360;
}

/** Display size (sample aspect ratio and rotation applied) and its reduced `width:height`. */
function displaySize(video: FfprobeStream): { width: number; height: number; aspectRatio: string } | undefined {
  if (!video.width || !video.height) return undefined;
  const sar = parseRatio(video.sample_aspect_ratio, ':') ?? { num: 1, den: 1 };
  let ratioW = video.width * sar.num;
  let ratioH = video.height * sar.den;
  let width = (video.width * sar.num) / sar.den;
  let height = video.height;
  const rotation = rotationOf(video);
  if (rotation === 90 || rotation === 270) {
    [ratioW, ratioH] = [ratioH, ratioW];
    [width, height] = [height, width];
  }
  const divisor = gcd(ratioW, ratioH);
  return { width, height, aspectRatio: `${ratioW / divisor}:${ratioH / divisor}` };
}

function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const hms = /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(value); // Matroska DURATION tag
  const seconds = hms ? Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(hms[3]) : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function streamDuration(stream: FfprobeStream): number | undefined {
  return parseSeconds(stream.duration) ?? parseSeconds(stream.tags?.DURATION);
}

function containerDuration(probe: FfprobeOutput, streams: Array<FfprobeStream | undefined>): number | undefined {
  const fromFormat = parseSeconds(probe.format?.duration);
  if (fromFormat !== undefined) return fromFormat;
  const fromStreams = streams.flatMap((s) => (s ? [streamDuration(s)] : [])).filter((d): d is number => d !== undefined);
  return fromStreams.length ? Math.max(...fromStreams) : undefined;
}

function optionalDuration(duration: number | undefined): { duration?: number } {
  return duration === undefined ? {} : { duration };
}

function minTier<T extends string>(tier: T, cap: MaxResolutionTier): T | MaxResolutionTier {
  const order = ['720p', '1080p', '1440p', '2160p'];
  return order.indexOf(tier) > order.indexOf(cap) ? cap : tier;
}

function inputInfo(probe: FfprobeOutput, streams: FfprobeStream[]): InputFileInfo {
  const tracks: InputFileInfo['tracks'] = [];
  for (const s of streams) {
    const duration = optionalDuration(streamDuration(s));
    if (s.codec_type === 'video' && s.disposition?.attached_pic !== 1) {
      const frameRate = frameRateOf(s);
      tracks.push({
        type: 'video',
        ...duration,
        ...(s.width ? { width: s.width } : {}),
        ...(s.height ? { height: s.height } : {}),
        ...(frameRate > 0 ? { frame_rate: frameRate } : {}),
        ...(s.codec_name ? { encoding: s.codec_name } : {}),
      });
    } else if (s.codec_type === 'audio') {
      const sampleRate = Number(s.sample_rate);
      const sampleSize = sampleSizeOf(s);
      tracks.push({
        type: 'audio',
        ...duration,
        ...(s.codec_name ? { encoding: s.codec_name } : {}),
        ...(sampleRate > 0 ? { sample_rate: sampleRate } : {}),
        ...(sampleSize ? { sample_size: sampleSize } : {}),
        ...(s.channels ? { channels: s.channels } : {}),
      });
    }
  }
  return { container_format: probe.format?.format_name ?? 'unknown', tracks };
}

const SAMPLE_FORMAT_BITS: Record<string, number> = { u8: 8, s16: 16, s32: 32, flt: 32, s64: 64, dbl: 64 };

/** Bits per sample as stored; for decoders that do not say (AAC, MP3), the decoded sample format's size. */
function sampleSizeOf(s: FfprobeStream): number | undefined {
  const raw = Number(s.bits_per_raw_sample);
  if (raw > 0) return raw;
  if (s.bits_per_sample && s.bits_per_sample > 0) return s.bits_per_sample;
  return s.sample_fmt ? SAMPLE_FORMAT_BITS[s.sample_fmt.replace(/p$/, '')] : undefined;
}
