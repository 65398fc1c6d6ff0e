import { newAssetSettingsBody, uploads } from '@platform/proto';
import { UploadBody } from './uploads.schemas';

/** Spec 2.6 as Mux writes it: absent fields left out, `test` only when true. */
export function toUpload(u: uploads.Upload): UploadBody {
  return {
    id: u.id,
    timeout: u.timeout,
    status: u.status as UploadBody['status'],
    ...(u.new_asset_settings ? { new_asset_settings: newAssetSettingsBody(u.new_asset_settings) } : {}),
    ...(u.asset_id !== undefined ? { asset_id: u.asset_id } : {}),
    ...(u.error ? { error: { type: u.error.type, message: u.error.message } } : {}),
    ...(u.cors_origin !== undefined ? { cors_origin: u.cors_origin } : {}),
    url: u.url,
    ...(u.test ? { test: true as const } : {}),
  };
}
