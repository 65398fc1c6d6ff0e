import { floorEven } from './frame-size';
import { ENCODING_PROFILES, EncodingProfile } from './video-quality';

export interface VideoRendition {
  name: string; // '1080p' (short side), used as the variant's folder and HLS NAME
  width: number;
  height: number;
  videoBitrate: number; // bits per second
}

export interface Ladder {
  video: VideoRendition[]; // highest first; empty for audio-only
  audio?: { bitrate: number; channels: number };
}

/** Short side → H.264 bitrate of the standard rungs (bits per second). */
export const RUNGS: ReadonlyArray<{ shortSide: number; bitrate: number }> = [
  { shortSide: 2160, bitrate: 15_000_000 },
  { shortSide: 1440, bitrate: 9_000_000 },
  { shortSide: 1080, bitrate: 5_000_000 },
  { shortSide: 720, bitrate: 3_000_000 },
  { shortSide: 540, bitrate: 2_000_000 },
  { shortSide: 360, bitrate: 800_000 },
  { shortSide: 270, bitrate: 400_000 },
];
export const AUDIO_BITRATE = 128_000;
/** A lower rung this close to the top rendition would add bytes but no choice for the player. */
const MIN_STEP = 0.85;

/**
 * The adaptive rendition set for a stored size (already capped to the tier by `interpretProbe`): the
 * source size itself on top, then every standard rung clearly below it (those the video quality keeps),
 * each keeping the source aspect ratio with even dimensions, at the quality's share of the standard bit
 * rates. Audio-only inputs get one AAC rendition.
 */
export function chooseLadder(
  video: { width: number; height: number; frameRate?: number } | undefined,
  hasAudio: boolean,
  profile: EncodingProfile = ENCODING_PROFILES.plus,
): Ladder {
  const audio = hasAudio ? { bitrate: AUDIO_BITRATE, channels: 2 } : undefined;
  if (!video) return { video: [], ...(audio ? { audio } : {}) };
  const width = floorEven(video.width);
  const height = floorEven(video.height);
  const portrait = height > width;
  const topShort = Math.min(width, height);
  const scaled = (bitrate: number) => Math.round((bitrate * profile.bitrateFactor) / 1000) * 1000;
  const top: VideoRendition = { name: `${topShort}p`, width, height, videoBitrate: scaled(bitrateFor(width * height)) };
  const kept = RUNGS.filter((r) => r.shortSide <= topShort * MIN_STEP && (profile.rungs?.includes(r.shortSide) ?? true));
  const lower = kept.map((rung): VideoRendition => {
    const scale = rung.shortSide / topShort;
    const long = floorEven((portrait ? height : width) * scale);
    return {
      name: `${rung.shortSide}p`,
      width: portrait ? rung.shortSide : long,
      height: portrait ? long : rung.shortSide,
      videoBitrate: scaled(rung.bitrate),
    };
  });
  return { video: [top, ...lower], ...(audio ? { audio } : {}) };
}

/** Bitrate of the rung of the same area (16:9), scaled by pixel count between rungs; at least 200 kb/s. */
export function bitrateFor(pixels: number): number {
  const areas = RUNGS.map((r) => ({ pixels: r.shortSide * Math.round((r.shortSide * 16) / 9), bitrate: r.bitrate }));
  const above = [...areas].reverse().find((a) => a.pixels >= pixels) ?? areas[0];
  const scaled = (above.bitrate * pixels) / above.pixels;
  return Math.max(200_000, Math.round(scaled / 100_000) * 100_000);
}
