import { characterCount } from '@platform/api-rules';
import { DomainError, ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { PlaybackPolicy } from '../playback-ids/playback-id.entity';
import { StoredInput } from './asset.entity';

export const MAX_RESOLUTION_TIERS = ['1080p', '1440p', '2160p'] as const;
/** Spec 2.1 has smart and baseline; Mux's SDK also sends the deprecated `premium`. */
export const ENCODING_TIERS = ['smart', 'baseline', 'premium'] as const;
export const VIDEO_QUALITIES = ['basic', 'plus', 'premium'] as const;
export const PLAYBACK_POLICIES = ['public', 'signed'] as const;
export const INGEST_TYPES = ['on_demand_url', 'on_demand_direct_upload', 'on_demand_clip', 'live_rtmp', 'live_srt'] as const;
export const PASSTHROUGH_MAX = 255;
export const ID_MAX = 255;

/** How Mux relates the deprecated encoding_tier and its replacement video_quality. */
const QUALITY_OF_TIER: Record<string, string> = { smart: 'plus', baseline: 'basic', premium: 'premium' };
const TIER_OF_QUALITY: Record<string, string> = { plus: 'smart', basic: 'baseline', premium: 'premium' };

/** Mux values of features this platform does not have yet (answered NOT_IMPLEMENTED, not INVALID). */
const LATER_MP4_SUPPORT = ['standard', 'capped-1080p', 'audio-only', 'audio-only,capped-1080p'];
const LATER_MASTER_ACCESS = ['temporary'];
const CLIP_URL = /^(svc|mux):\/\/assets\//i;
const UPLOADED_FILE_KEY = /^uploads\/[A-Za-z0-9]{1,255}\/source$/;

/** The validated settings of a new asset, defaults applied. */
export interface AssetSettings {
  inputs: StoredInput[];
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
  const later: string[] = [];

  const ingestType = r.ingest_type ?? 'on_demand_url';
  if (!(INGEST_TYPES as readonly string[]).includes(ingestType)) invalid.push(`ingest_type: ${oneOf(INGEST_TYPES)}`);
  if (ingestType === 'on_demand_clip') later.push('ingest_type: clips (on_demand_clip) are not implemented yet');

  const inputs = validInputs(r.input ?? [], ingestType, invalid, later);

  const playbackPolicies = (r.playback_policy ?? []).filter((policy, i) => {
    if ((PLAYBACK_POLICIES as readonly string[]).includes(policy)) return true;
    invalid.push(`playback_policy[${i}]: ${oneOf(PLAYBACK_POLICIES)}`);
    return false;
  }) as PlaybackPolicy[];

  if (r.passthrough !== undefined && characterCount(r.passthrough) > PASSTHROUGH_MAX)
    invalid.push(`passthrough: must be at most ${PASSTHROUGH_MAX} characters`);
  const maxResolutionTier = r.max_resolution_tier ?? '1080p';
  if (!(MAX_RESOLUTION_TIERS as readonly string[]).includes(maxResolutionTier)) invalid.push(`max_resolution_tier: ${oneOf(MAX_RESOLUTION_TIERS)}`);

  const { encodingTier, videoQuality } = tierAndQuality(r.encoding_tier, r.video_quality, invalid);

  const mp4Support = r.mp4_support ?? 'none';
  if (LATER_MP4_SUPPORT.includes(mp4Support))
    later.push(`mp4_support: ${JSON.stringify(mp4Support)} is not implemented yet (static MP4 renditions); use "none"`);
  else if (mp4Support !== 'none') invalid.push(`mp4_support: ${oneOf(['none', ...LATER_MP4_SUPPORT])}`);
  const masterAccess = r.master_access ?? 'none';
  if (LATER_MASTER_ACCESS.includes(masterAccess))
    later.push(`master_access: ${JSON.stringify(masterAccess)} is not implemented yet (master MP4 downloads); use "none"`);
  else if (masterAccess !== 'none') invalid.push(`master_access: ${oneOf(['none', ...LATER_MASTER_ACCESS])}`);
  if (r.normalize_audio === true) later.push('normalize_audio: true is not implemented yet (audio loudness normalization); use false');

  for (const [field, value] of [
    ['upload_id', r.upload_id],
    ['live_stream_id', r.live_stream_id],
  ] as const) {
    if (value !== undefined && (value === '' || value.length > ID_MAX)) invalid.push(`${field}: must be 1 to ${ID_MAX} characters`);
  }

  if (invalid.length > 0) throw DomainError.invalid(...invalid);
  if (later.length > 0) throw new DomainError(ErrorCode.NOT_IMPLEMENTED, later);
  return {
    inputs,
    playbackPolicies,
    passthrough: r.passthrough === undefined || r.passthrough === '' ? null : r.passthrough,
    maxResolutionTier,
    encodingTier,
    videoQuality,
    mp4Support,
    masterAccess,
    normalizeAudio: false,
    test: r.test === true,
    ingestType,
    uploadId: r.upload_id ?? null,
    liveStreamId: r.live_stream_id ?? null,
  };
}

/**
 * The main input only: more inputs (audio or text tracks, overlays) come later. Its url is
 * required when the asset is made from a URL; a direct upload brings its own media (the stored
 * file named by the internal `object_key`, set by the uploads service) and has no url.
 */
function validInputs(inputs: assets.AssetInput[], ingestType: string, invalid: string[], later: string[]): StoredInput[] {
  const fromUpload = ingestType === 'on_demand_direct_upload';
  if (inputs.length === 0) {
    if (ingestType === 'on_demand_url') invalid.push('input: is required (the URL of a media file)');
    return [];
  }
  if (inputs.length > 1) later.push(`input[1]: more than one input (audio and text tracks, overlays) is not implemented yet`);
  const { url, object_key: objectKey } = inputs[0];
  if (objectKey !== undefined && (!fromUpload || !UPLOADED_FILE_KEY.test(objectKey))) {
    invalid.push('input[0].object_key: only the uploads service names a stored file (uploads/{id}/source)');
  }
  if (url === undefined || url === '') {
    if (ingestType === 'on_demand_url') invalid.push('input[0].url: is required');
    return [objectKey !== undefined ? { object_key: objectKey } : {}];
  }
  if (fromUpload) {
    invalid.push('input[0].url: must be omitted for a direct upload (the uploaded file is the main input)');
  } else if (ingestType === 'live_rtmp' || ingestType === 'live_srt') {
    invalid.push('input[0].url: must be omitted for a live stream (the stream is the main input)');
  } else if (CLIP_URL.test(url)) {
    later.push('input[0].url: clips from svc://assets/{asset_id} are not implemented yet');
  } else if (!isHttpUrl(url)) {
    invalid.push('input[0].url: must be an http or https URL');
  }
  return [{ url }];
}

export function isHttpUrl(value: string): boolean {
  try {
    const { protocol, hostname } = new URL(value);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  } catch {
    return false;
  }
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
