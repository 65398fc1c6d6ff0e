import { VideoResolutionTier, resolutionTierOfPixels } from '@platform/media';

/** Mux's delivery tiers (spec 000 §2.11), the `resolution_tier` of a delivery item. */
export type DeliveryTier = 'audio_only' | VideoResolutionTier;

/** The tier of a rendition by its pixel count; no picture (no RESOLUTION in the master) is audio only. */
export function deliveryTierOf(width?: number, height?: number): DeliveryTier {
  const pixels = (width ?? 0) * (height ?? 0);
  return pixels <= 0 ? 'audio_only' : resolutionTierOfPixels(pixels);
}
