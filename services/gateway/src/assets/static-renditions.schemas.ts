import { MASTER_ACCESS, MP4_SUPPORT, STATIC_RENDITION_RESOLUTIONS, staticRenditionSchema } from '@platform/api-shapes';
import { z } from 'zod';
import { passthroughText } from '../validation/text';
import { dataOf } from '../wire/wire';

/** PUT …/mp4-support (spec 4.2; Mux's newer options too). */
export const updateMp4SupportBody = z
  .object({
    mp4_support: z.enum(MP4_SUPPORT).meta({
      description:
        '`standard`: low/medium/high.mp4 as the source allows (audio.m4a for audio only); capped-1080p, audio-only and both as Mux has them; `none` deletes the files',
    }),
  })
  .strict();

/** PUT …/master-access (spec 4.2). */
export const updateMasterAccessBody = z
  .object({
    master_access: z.enum(MASTER_ACCESS).meta({ description: '`temporary`: a master MP4 whose URL works for 24 hours; `none` removes it at once' }),
  })
  .strict();

/** POST …/static-renditions (SDK 15 AssetCreateStaticRenditionParams). */
export const createStaticRenditionBody = z
  .object({
    resolution: z.enum(STATIC_RENDITION_RESOLUTIONS),
    passthrough: passthroughText.optional(),
  })
  .strict();

export const staticRenditionResponse = dataOf(staticRenditionSchema);

/** PUT /video/v1/live-streams/{id}/new-asset-settings/static-renditions (SDK 15 LiveStreamUpdateNewAssetSettingsStaticRenditionsParams). */
export const newAssetStaticRenditionsBody = z.object({ static_renditions: z.array(createStaticRenditionBody) }).strict();

export type UpdateMp4SupportBody = z.output<typeof updateMp4SupportBody>;
export type UpdateMasterAccessBody = z.output<typeof updateMasterAccessBody>;
export type CreateStaticRenditionBody = z.output<typeof createStaticRenditionBody>;
export type NewAssetStaticRenditionsBody = z.output<typeof newAssetStaticRenditionsBody>;
