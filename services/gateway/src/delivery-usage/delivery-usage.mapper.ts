import { deliveryUsage } from '@platform/proto';
import { DeliveryReportBody } from './delivery-usage.schemas';

const TIERS = ['tier_audio_only', 'tier_720p', 'tier_1080p', 'tier_1440p', 'tier_2160p'] as const;

/** A usage record as the API shows it: times as Unix-second strings, absent fields left out. */
export function toDeliveryReport(r: deliveryUsage.DeliveryReport): DeliveryReportBody {
  const byResolution: DeliveryReportBody['delivered_seconds_by_resolution'] = {};
  for (const tier of TIERS) {
    const value = r.delivered_seconds_by_resolution?.[tier];
    if (value !== undefined && value !== null) byResolution[tier] = value;
  }
  return {
    asset_id: r.asset_id,
    ...(r.live_stream_id ? { live_stream_id: r.live_stream_id } : {}),
    ...(r.passthrough ? { passthrough: r.passthrough } : {}),
    asset_duration: r.asset_duration,
    asset_state: r.asset_state as DeliveryReportBody['asset_state'],
    asset_resolution_tier: r.asset_resolution_tier as DeliveryReportBody['asset_resolution_tier'],
    asset_encoding_tier: r.asset_encoding_tier as DeliveryReportBody['asset_encoding_tier'],
    ...(r.asset_video_quality ? { asset_video_quality: r.asset_video_quality as DeliveryReportBody['asset_video_quality'] } : {}),
    created_at: String(r.created_at),
    ...(r.deleted_at !== undefined && r.deleted_at !== null ? { deleted_at: String(r.deleted_at) } : {}),
    delivered_seconds: r.delivered_seconds,
    delivered_seconds_by_resolution: byResolution,
  };
}
