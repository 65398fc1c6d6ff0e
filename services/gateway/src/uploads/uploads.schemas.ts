import { CORS_ORIGIN_PATTERN, MAX_URL_LENGTH } from '@platform/api-rules';
import { uploadSchema } from '@platform/api-shapes';
import { z } from 'zod';
import { uploadAssetSettingsBody } from '../assets/assets.schemas';
import { pagingQuery } from '../validation/paging';
import { dataOf } from '../wire/wire';

export const TIMEOUT_MIN = 60;
export const TIMEOUT_MAX = 604_800;

/** POST /video/v1/uploads (spec 2.6, 4.5). */
export const createUploadBody = z
  .object({
    timeout: z.int().min(TIMEOUT_MIN).max(TIMEOUT_MAX).default(3600).meta({ description: 'Seconds the upload URL is valid: 60 to 604800, default 3600' }),
    cors_origin: z
      .string()
      .regex(CORS_ORIGIN_PATTERN, { error: 'must be "*" or an origin such as "https://app.example.com"' })
      .max(MAX_URL_LENGTH)
      .optional()
      .meta({ description: 'The browser origin allowed to PUT to the URL (`*` for any); without it no page can (scripts still can)' }),
    new_asset_settings: uploadAssetSettingsBody
      .optional()
      .meta({ description: 'Asset settings (spec 2.2) of the asset made from the file; the first input has no url' }),
    test: z.boolean().optional().meta({ description: 'The asset is a test asset' }),
  })
  .strict();

export const uploadListQuery = pagingQuery();

export const uploadResponse = dataOf(uploadSchema);
export const uploadListResponse = z.object({ data: z.array(uploadSchema) });

export type CreateUploadBody = z.output<typeof createUploadBody>;
export type UploadListQuery = z.output<typeof uploadListQuery>;
