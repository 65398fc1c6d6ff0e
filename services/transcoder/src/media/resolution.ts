import { floorEven } from '@platform/media';
import { MaxResolutionTier } from './probe.types';

/**
 * Largest frame kept for a capped tier, by pixel count: the tier's own 16:9 frame (1920x1080, 2560x1440,
 * 3840x2160), so a 16:9 source above the cap becomes exactly that rendition. (The 1440p billing bound of
 * `resolutionTierOfPixels` in @platform/media, 4,194,304 pixels, would make a 4K source 2730x1536.)
 */
const CAP_PIXELS: Record<MaxResolutionTier, number> = {
  '1080p': 1920 * 1080,
  '1440p': 2560 * 1440,
  '2160p': 3840 * 2160,
};

/** A frame the tier cap would scale down (a stream copy of it would deliver more than the tier). */
export function exceedsTier(width: number, height: number, cap: MaxResolutionTier): boolean {
  return width * height > CAP_PIXELS[cap];
}

/**
 * Square-pixel size that fits the tier cap: unchanged (rounded down to even) when it fits, otherwise
 * scaled down keeping the aspect ratio until its pixel count is within the cap.
 */
export function fitToTier(width: number, height: number, cap: MaxResolutionTier): { width: number; height: number } {
  const max = CAP_PIXELS[cap];
  const pixels = width * height;
  if (pixels <= max) return { width: floorEven(width), height: floorEven(height) };
  const scale = Math.sqrt(max / pixels);
  return { width: floorEven(width * scale), height: floorEven(height * scale) };
}
