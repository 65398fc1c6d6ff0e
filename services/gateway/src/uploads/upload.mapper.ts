import { assets, uploads } from '@platform/proto';
import { UploadBody } from './uploads.schemas';

/**
 * new_asset_settings as the API echoes them (spec 2.2: policies under `playback_policies`); the
 * uploads service writes the same shape into its events.
 */
export function toNewAssetSettings(s: assets.CreateAssetRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const inputs = (s.input ?? []).map((i) => Object.fromEntries(Object.entries(i).filter(([k, v]) => k !== 'object_key' && v !== undefined)));
  if (inputs.length > 0) body.input = inputs;
  if ((s.playback_policy ?? []).length > 0) body.playback_policies = [...s.playback_policy];
  for (const key of ['passthrough', 'max_resolution_tier', 'encoding_tier', 'video_quality', 'mp4_support', 'master_access', 'normalize_audio', 'test'] as const) {
    if (s[key] !== undefined) body[key] = s[key];
  }
  return body;
}

/** Spec 2.6 as Mux writes it: absent fields left out, `test` only when true. */
export function toUpload(u: uploads.Upload): UploadBody {
  return {
    id: u.id,
    timeout: u.timeout,
    status: u.status as UploadBody['status'],
    ...(u.new_asset_settings ? { new_asset_settings: toNewAssetSettings(u.new_asset_settings) } : {}),
    ...(u.asset_id !== undefined ? { asset_id: u.asset_id } : {}),
    ...(u.error ? { error: { type: u.error.type, message: u.error.message } } : {}),
    ...(u.cors_origin !== undefined ? { cors_origin: u.cors_origin } : {}),
    url: u.url,
    ...(u.test ? { test: true as const } : {}),
  };
}
