import { CreateAssetRequest } from './gen/assets/v1/assets';

/**
 * `new_asset_settings` (a CreateAssetRequest kept by uploads and live streams) as the REST API and
 * the webhooks echo it: spec 2.2 names the policies `playback_policies`; absent fields are left out;
 * the internal stored-file key never shows.
 */
export function newAssetSettingsBody(s: CreateAssetRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const inputs = (s.input ?? []).map((i) => Object.fromEntries(Object.entries(i).filter(([k, v]) => k !== 'object_key' && v !== undefined)));
  if (inputs.length > 0) body.input = inputs;
  if ((s.playback_policy ?? []).length > 0) body.playback_policies = [...s.playback_policy];
  for (const key of [
    'passthrough',
    'max_resolution_tier',
    'encoding_tier',
    'video_quality',
    'mp4_support',
    'master_access',
    'normalize_audio',
    'test',
  ] as const) {
    if (s[key] !== undefined) body[key] = s[key];
  }
  return body;
}
