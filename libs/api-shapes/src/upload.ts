import { uploads } from '@platform/proto';
import { z } from 'zod';
import { newAssetSettingsBody, newAssetSettingsSchema } from './new-asset-settings';

export const UPLOAD_STATUSES = ['waiting', 'asset_created', 'errored', 'cancelled', 'timed_out'] as const;

/** A direct upload (spec 2.6). */
export const uploadSchema = z.object({
  id: z.string(),
  timeout: z.int(),
  status: z.enum(UPLOAD_STATUSES),
  new_asset_settings: newAssetSettingsSchema.optional(),
  asset_id: z.string().optional().meta({ description: 'Only when `asset_created`' }),
  error: z.object({ type: z.string(), message: z.string() }).optional().meta({ description: 'Only when `errored`' }),
  cors_origin: z.string().optional(),
  url: z.string().meta({ description: 'PUT the file here: in one request, or in chunks with Content-Range (308 until the last), as UpChunk does' }),
  test: z.literal(true).optional(),
});

export type UploadBody = z.infer<typeof uploadSchema>;

/** Spec 2.6 as Mux writes it: absent fields left out, `test` only when true. The API body and the data of `video.upload.*`. */
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
