import { assets } from '@platform/proto';
import { z } from 'zod';

/** `new_asset_settings` of an upload or a live stream as the API echoes it. */
export const newAssetSettingsSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'As given (spec 2.2); the playback policies as `playback_policies`' });

export type NewAssetSettingsBody = z.infer<typeof newAssetSettingsSchema>;

/**
 * `new_asset_settings` (a CreateAssetRequest kept by uploads and live streams) as the REST API and
 * the webhooks echo it: spec 2.2 names the policies `playback_policies`; absent fields are left out;
 * the internal stored-file key never shows.
 */
export function newAssetSettingsBody(s: assets.CreateAssetRequest): NewAssetSettingsBody {
  const body: NewAssetSettingsBody = {};
  const inputs = (s.input ?? []).map((i) => Object.fromEntries(Object.entries(i).filter(([k, v]) => k !== 'object_key' && isGiven(v))));
  if (inputs.length > 0) body.input = inputs;
  if ((s.playback_policy ?? []).length > 0) body.playback_policies = [...s.playback_policy];
  if ((s.static_renditions ?? []).length > 0) body.static_renditions = s.static_renditions.map((r) => ({ ...r }));
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

/** A field that was given: not absent, and not a repeated field's empty default. */
function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}
