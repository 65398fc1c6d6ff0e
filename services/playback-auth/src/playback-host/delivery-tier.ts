/** Mux's delivery tiers (spec 000 §2.11), the `resolution_tier` of a delivery item. */
export type DeliveryTier = 'audio_only' | '720p' | '1080p' | '1440p' | '2160p';

/** The tier of a rendition by its pixel count; no picture (no RESOLUTION in the master) is audio only. */
export function deliveryTierOf(width?: number, height?: number): DeliveryTier {
  const pixels = (width ?? 0) * (height ?? 0);
  if (pixels <= 0) return 'audio_only';
  if (pixels <= 921_600) return '720p';
  if (pixels <= 2_073_600) return '1080p';
  if (pixels <= 4_194_304) return '1440p';
  return '2160p';
}
