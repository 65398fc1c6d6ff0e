import { Emit } from '@platform/events';
import { newAssetSettingsBody } from '@platform/proto';
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
