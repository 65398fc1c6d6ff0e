import { deliveryUsage } from '@platform/proto';
import { DeliveryAssetRow } from './delivery-asset.projection';
import { AssetDeliveries, DeliveryTier } from './delivery-usage.query';

const TIER_FIELDS: Record<DeliveryTier, keyof deliveryUsage.DeliveredSecondsByResolution> = {
  audio_only: 'tier_audio_only',
  '720p': 'tier_720p',
  '1080p': 'tier_1080p',
  '1440p': 'tier_1440p',
  '2160p': 'tier_2160p',
};
const ASSET_TIER: Record<DeliveryTier, string> = { audio_only: 'audio-only', '720p': '720p', '1080p': '1080p', '1440p': '1440p', '2160p': '2160p' };

/** Seconds as the API shows them: sums of float EXTINFs lose their last digits. */
const seconds = (value: number) => Math.round(value * 1000) / 1000;

/**
 * A usage record (spec 000 §2.11): the deliveries, and the asset as its events last described it.
 * An asset whose events the projection has not seen (deliveries reported before its `created`
 * arrived) shows as ready, its tier the highest delivered, its other facts empty.
 */
export function toDeliveryReport(deliveries: AssetDeliveries, asset: DeliveryAssetRow | undefined): deliveryUsage.DeliveryReport {
  const byResolution: deliveryUsage.DeliveredSecondsByResolution = {};
  for (const [tier, field] of Object.entries(TIER_FIELDS) as [DeliveryTier, keyof deliveryUsage.DeliveredSecondsByResolution][]) {
    const delivered = seconds(deliveries.by_tier[tier] ?? 0);
    if (delivered > 0) byResolution[field] = delivered;
  }
  return {
    asset_id: deliveries.asset_id,
    ...(asset?.live_stream_id ? { live_stream_id: asset.live_stream_id } : {}),
    ...(asset?.passthrough ? { passthrough: asset.passthrough } : {}),
    asset_duration: asset?.duration ?? 0,
    asset_state: assetState(asset?.status),
    asset_resolution_tier: asset?.resolution_tier ?? highestTier(deliveries),
    asset_encoding_tier: asset?.encoding_tier ?? 'smart',
    ...(asset?.video_quality ? { asset_video_quality: asset.video_quality } : {}),
    created_at: asset?.created_at ?? 0,
    ...(asset?.deleted_at != null ? { deleted_at: asset.deleted_at } : {}),
    delivered_seconds: seconds(deliveries.delivered_seconds),
    delivered_seconds_by_resolution: byResolution,
  };
}

/** Mux's three states: an asset still preparing (a live recording under way) is delivered, so ready. */
function assetState(status: string | undefined): string {
  return status === 'errored' || status === 'deleted' ? status : 'ready';
}

function highestTier(deliveries: AssetDeliveries): string {
  const delivered = (Object.keys(ASSET_TIER) as DeliveryTier[]).filter((tier) => (deliveries.by_tier[tier] ?? 0) > 0);
  return ASSET_TIER[delivered[delivered.length - 1] ?? 'audio_only'];
}
