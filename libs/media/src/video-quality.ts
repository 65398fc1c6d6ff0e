/**
 * What `video_quality` (and its deprecated alias `encoding_tier`: baseline = basic, smart = plus,
 * premium = premium) changes in the encode: the x264 preset, the bit rates of the ladder and which rungs
 * below the top rendition it has. Rate control is the same for all: average bit rate, capped
 * (`-maxrate` 1.07×, `-bufsize` 1.5× the target), so HLS BANDWIDTH stays predictable.
 */
export type VideoQuality = 'basic' | 'plus' | 'premium';

export interface EncodingProfile {
  quality: VideoQuality;
  /** libx264 `-preset`. */
  preset: string;
  /** Multiplies every rung's bit rate (and the top rendition's). */
  bitrateFactor: number;
  /** Short sides of the standard rungs kept below the top rendition; undefined: all of them. */
  rungs?: readonly number[];
}

export const ENCODING_PROFILES: Readonly<Record<VideoQuality, EncodingProfile>> = {
  // Cheaper to make and to stream: a faster preset, 60 % of the bit rates, three rungs at most below the top.
  basic: { quality: 'basic', preset: 'superfast', bitrateFactor: 0.6, rungs: [1080, 720, 360] },
  // The default: every rung at the standard bit rates.
  plus: { quality: 'plus', preset: 'veryfast', bitrateFactor: 1 },
  // x264's default (slower, better) preset and 1.5× the bit rates on every rung.
  premium: { quality: 'premium', preset: 'medium', bitrateFactor: 1.5 },
};

const QUALITY_OF_TIER: Record<string, VideoQuality> = { baseline: 'basic', smart: 'plus', premium: 'premium' };

/** The asset's quality: `video_quality`, else from `encoding_tier`, else `plus` (the default of both). */
export function videoQualityOf(spec: { video_quality?: string; encoding_tier?: string }): VideoQuality {
  const quality = spec.video_quality;
  if (quality === 'basic' || quality === 'plus' || quality === 'premium') return quality;
  return QUALITY_OF_TIER[spec.encoding_tier ?? ''] ?? 'plus';
}

export function encodingProfileOf(spec: { video_quality?: string; encoding_tier?: string }): EncodingProfile {
  return ENCODING_PROFILES[videoQualityOf(spec)];
}
