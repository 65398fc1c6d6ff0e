import { uploads } from '@platform/proto';
import { UploadEntity } from './upload.entity';
import { uploadUrl } from './upload-url';

/** The proto Upload: `asset_id` only in `asset_created`, `error` only in `errored` (spec 2.6). */
export function toUploadMessage(u: UploadEntity, baseUrl: string): uploads.Upload {
  return {
    id: u.id,
    status: u.status,
    timeout: u.timeout,
    ...(u.newAssetSettings ? { new_asset_settings: structuredClone(u.newAssetSettings) } : {}),
    ...(u.status === 'asset_created' && u.assetId ? { asset_id: u.assetId } : {}),
    ...(u.status === 'errored' && u.error ? { error: { ...u.error } } : {}),
    ...(u.corsOrigin !== null ? { cors_origin: u.corsOrigin } : {}),
    url: uploadUrl(baseUrl, u.id, u.signature),
    test: u.test,
    created_at: Math.floor(u.createdAt.getTime() / 1000),
  };
}
