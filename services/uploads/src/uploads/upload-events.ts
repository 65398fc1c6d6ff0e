import { Emit } from '@platform/events';
import { assets } from '@platform/proto';
import { UploadEntity } from './upload.entity';
import { uploadUrl } from './upload-url';

/** Every event type this service publishes (each is in EVENT_TYPES of @platform/events). */
export const UPLOAD_EVENTS = {
  created: 'video.upload.created',
  assetCreated: 'video.upload.asset_created',
  cancelled: 'video.upload.cancelled',
  errored: 'video.upload.errored',
} as const;

export type UploadEventType = (typeof UPLOAD_EVENTS)[keyof typeof UPLOAD_EVENTS];

/**
 * new_asset_settings as the REST API echoes them (spec 2.2: the policies as `playback_policies`).
 * The gateway's upload mapper writes the same shape for responses.
 */
export function newAssetSettingsBody(s: assets.CreateAssetRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const inputs = (s.input ?? []).map((i) => Object.fromEntries(Object.entries(i).filter(([k, v]) => k !== 'object_key' && v !== undefined)));
  if (inputs.length > 0) body.input = inputs;
  if ((s.playback_policy ?? []).length > 0) body.playback_policies = [...s.playback_policy];
  for (const key of ['passthrough', 'max_resolution_tier', 'encoding_tier', 'video_quality', 'mp4_support', 'master_access', 'normalize_audio', 'test'] as const) {
    if (s[key] !== undefined) body[key] = s[key];
  }
  return body;
}

/** The upload as the REST API shows it: the data of its events. */
export function toUploadEventData(u: UploadEntity, baseUrl: string): Record<string, unknown> {
  return {
    id: u.id,
    status: u.status,
    timeout: u.timeout,
    ...(u.newAssetSettings ? { new_asset_settings: newAssetSettingsBody(u.newAssetSettings) } : {}),
    ...(u.status === 'asset_created' && u.assetId ? { asset_id: u.assetId } : {}),
    ...(u.status === 'errored' && u.error ? { error: { ...u.error } } : {}),
    ...(u.corsOrigin !== null ? { cors_origin: u.corsOrigin } : {}),
    url: uploadUrl(baseUrl, u.id, u.signature),
    ...(u.test ? { test: true } : {}),
  };
}

export function emitUploadEvent(emit: Emit, type: UploadEventType, upload: UploadEntity, baseUrl: string): void {
  emit({ type, object: { type: 'upload', id: upload.id }, data: toUploadEventData(upload, baseUrl) });
}
