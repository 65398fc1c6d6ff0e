/** Mux's video resolution tiers (spec 000 §2.11), the `resolution_tier` of an asset and of a delivery. */
export type VideoResolutionTier = '720p' | '1080p' | '1440p' | '2160p';

/** Largest pixel count of each tier but the top one, as spec 000 §2.11 bills them (720p up to 921,600, …). */
const TIER_MAX_PIXELS: ReadonlyArray<readonly [VideoResolutionTier, number]> = [
  ['720p', 921_600],
  ['1080p', 2_073_600],
  ['1440p', 4_194_304],
];

/**
 * The tier of a frame by its pixel count (width × height, so portrait and landscape alike). A stream without a
 * picture has no pixel tier: each caller names that itself (`audio-only` on an asset, `audio_only` in delivery usage).
 */
export function resolutionTierOfPixels(pixels: number): VideoResolutionTier {
  return TIER_MAX_PIXELS.find(([, max]) => pixels <= max)?.[0] ?? '2160p';
}
