import { passthroughProblems } from '@platform/api-rules';
import { DomainError } from '@platform/errors';
import { assets } from '@platform/proto';
import { PlaybackPolicy } from '../playback-ids/playback-id.entity';
import { StoredInput } from './asset.entity';
import { ClassifiedInputs, classifyInputs } from './asset-inputs';
import { refuseUnbuiltFeatures } from './unbuilt-asset-features';

export { isHttpUrl } from './asset-inputs';

export const MAX_RESOLUTION_TIERS = ['1080p', '1440p', '2160p'] as const;
/** Spec 2.1 has smart and baseline; Mux's SDK also sends the deprecated `premium`. */
export const ENCODING_TIERS = ['smart', 'baseline', 'premium'] as const;
export const VIDEO_QUALITIES = ['basic', 'plus', 'premium'] as const;
export const PLAYBACK_POLICIES = ['public', 'signed'] as const;
export const INGEST_TYPES = ['on_demand_url', 'on_demand_direct_upload', 'on_demand_clip', 'live_rtmp', 'live_srt'] as const;
export const ID_MAX = 255;

/** How Mux relates the deprecated encoding_tier and its replacement video_quality. */
const QUALITY_OF_TIER: Record<string, string> = { smart: 'plus', baseline: 'basic', premium: 'premium' };
const TIER_OF_QUALITY: Record<string, string> = { plus: 'smart', basic: 'baseline', premium: 'premium' };

export const MP4_SUPPORT = ['none', 'standard', 'capped-1080p', 'audio-only', 'audio-only,capped-1080p'] as const;
export const MASTER_ACCESS = ['none', 'temporary'] as const;
export const STATIC_RENDITION_RESOLUTIONS = ['highest', 'audio-only', '2160p', '1440p', '1080p', '720p', '540p', '480p', '360p', '270p'] as const;

/** The validated settings of a new asset, defaults applied. */
export interface AssetSettings {
  inputs: StoredInput[];
  /** What each input is (main, overlay, text, audio), and a clip's source asset. */
  classified: ClassifiedInputs;
  /** Mux's Static Renditions API requests at create. */
  staticRenditions: assets.StaticRenditionRequest[];
  playbackPolicies: PlaybackPolicy[];
  passthrough: string | null;
  maxResolutionTier: string;
  encodingTier: string;
  videoQuality: string;
  mp4Support: string;
  masterAccess: string;
  normalizeAudio: boolean;
  test: boolean;
  ingestType: string;
  uploadId: string | null;
  liveStreamId: string | null;
}

const oneOf = (values: readonly string[]) => `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/**
 * Spec 2.2 asset settings, checked again after the gateway: every invalid field is
 * INVALID_PARAMETERS (all named at once); a valid request for a feature not built yet is
 * NOT_IMPLEMENTED. Defaults: 1080p, smart/plus, mp4_support and master_access none,
 * normalize_audio and test false, ingest_type on_demand_url.
 */
export function validAssetSettings(r: assets.CreateAssetRequest): AssetSettings {
  const invalid: string[] = [];

  const classified = classifyInputs(r.input ?? [], r.ingest_type ?? 'on_demand_url', invalid);
  // a clip's main input names its source asset: the asset is a clip unless the caller said otherwise
  const ingestType = r.ingest_type ?? (classified.clipSourceAssetId !== undefined ? 'on_demand_clip' : 'on_demand_url');
  if (!(INGEST_TYPES as readonly string[]).includes(ingestType)) invalid.push(`ingest_type: ${oneOf(INGEST_TYPES)}`);
  if (ingestType === 'on_demand_clip' && classified.clipSourceAssetId === undefined)
    invalid.push('input[0].url: a clip names its source as svc://assets/{asset_id}');
  if (ingestType !== 'on_demand_clip' && classified.clipSourceAssetId !== undefined) invalid.push(`input[0].url: a clip's ingest_type is on_demand_clip`);

  const playbackPolicies = (r.playback_policy ?? []).filter((policy, i) => {
    if ((PLAYBACK_POLICIES as readonly string[]).includes(policy)) return true;
    invalid.push(`playback_policy[${i}]: ${oneOf(PLAYBACK_POLICIES)}`);
    return false;
  }) as PlaybackPolicy[];

  invalid.push(...passthroughProblems(r.passthrough));
  const maxResolutionTier = r.max_resolution_tier ?? '1080p';
  if (!(MAX_RESOLUTION_TIERS as readonly string[]).includes(maxResolutionTier)) invalid.push(`max_resolution_tier: ${oneOf(MAX_RESOLUTION_TIERS)}`);

  const { encodingTier, videoQuality } = tierAndQuality(r.encoding_tier, r.video_quality, invalid);
  if (r.normalize_audio === true && (ingestType === 'live_rtmp' || ingestType === 'live_srt'))
    invalid.push("normalize_audio: only for on-demand assets (a live stream's recordings are not normalized)");

  const mp4Support = r.mp4_support ?? 'none';
  if (!(MP4_SUPPORT as readonly string[]).includes(mp4Support)) invalid.push(`mp4_support: ${oneOf(MP4_SUPPORT)}`);
  const masterAccess = r.master_access ?? 'none';
  if (!(MASTER_ACCESS as readonly string[]).includes(masterAccess)) invalid.push(`master_access: ${oneOf(MASTER_ACCESS)}`);
  const staticRenditions = r.static_renditions ?? [];
  staticRenditions.forEach((rendition, i) => {
    if (!(STATIC_RENDITION_RESOLUTIONS as readonly string[]).includes(rendition.resolution)) {
      invalid.push(`static_renditions[${i}].resolution: ${oneOf(STATIC_RENDITION_RESOLUTIONS)}`);
    }
    invalid.push(...passthroughProblems(rendition.passthrough, `static_renditions[${i}].passthrough`));
  });
  if (staticRenditions.length > 0 && mp4Support !== 'none') invalid.push('static_renditions: give static_renditions or mp4_support, not both');

  for (const [field, value] of [
    ['upload_id', r.upload_id],
    ['live_stream_id', r.live_stream_id],
  ] as const) {
    if (value !== undefined && (value === '' || value.length > ID_MAX)) invalid.push(`${field}: must be 1 to ${ID_MAX} characters`);
  }

  if (invalid.length > 0) throw DomainError.invalid(...invalid);
  refuseUnbuiltFeatures(r, classified);
  return {
    inputs: classified.stored,
    classified,
    staticRenditions: staticRenditions.map((rendition) => ({ ...rendition })),
    playbackPolicies,
    passthrough: r.passthrough === undefined || r.passthrough === '' ? null : r.passthrough,
    maxResolutionTier,
    encodingTier,
    videoQuality,
    mp4Support,
    masterAccess,
    normalizeAudio: r.normalize_audio === true,
    test: r.test === true,
    ingestType,
    uploadId: r.upload_id ?? null,
    liveStreamId: r.live_stream_id ?? null,
  };
}

function tierAndQuality(tier: string | undefined, quality: string | undefined, invalid: string[]): { encodingTier: string; videoQuality: string } {
  if (tier !== undefined && !(ENCODING_TIERS as readonly string[]).includes(tier)) invalid.push(`encoding_tier: ${oneOf(ENCODING_TIERS)}`);
  if (quality !== undefined && !(VIDEO_QUALITIES as readonly string[]).includes(quality)) invalid.push(`video_quality: ${oneOf(VIDEO_QUALITIES)}`);
  if (
    tier !== undefined &&
    quality !== undefined &&
    QUALITY_OF_TIER[tier] !== undefined &&
    TIER_OF_QUALITY[quality] !== undefined &&
    QUALITY_OF_TIER[tier] !== quality
  ) {
    invalid.push(
      `video_quality: ${JSON.stringify(quality)} contradicts encoding_tier ${JSON.stringify(tier)} (smart is plus, baseline is basic, premium is premium)`,
    );
  }
  const encodingTier = tier ?? (quality !== undefined ? TIER_OF_QUALITY[quality] : undefined) ?? 'smart';
  return { encodingTier, videoQuality: quality ?? QUALITY_OF_TIER[encodingTier] ?? 'plus' };
}

/** A playback policy of a new playback id (POST …/playback-ids). */
export function validPlaybackPolicy(policy: string): PlaybackPolicy {
  if (!(PLAYBACK_POLICIES as readonly string[]).includes(policy)) throw DomainError.invalid(`policy: ${oneOf(PLAYBACK_POLICIES)}`);
  return policy as PlaybackPolicy;
}
