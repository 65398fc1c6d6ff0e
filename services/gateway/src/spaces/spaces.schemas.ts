import { HTTP_URL_PATTERN, MAX_URL_LENGTH } from '@platform/api-rules';
import { BROADCAST_LAYOUTS, BROADCAST_RESOLUTIONS, broadcastSchema, SPACE_TYPES, spaceSchema } from '@platform/api-shapes';
import { z } from 'zod';
import { pagingQuery } from '../validation/paging';
import { passthroughText, text } from '../validation/text';
import { dataOf, listOf } from '../wire/wire';

/** Spec 4.10 broadcast body; absent fields take the defaults of 2.10 (gallery, 1920x1080). */
export const broadcastInputBody = z
  .object({
    live_stream_id: text(255).min(1).meta({ description: 'The live stream the space is broadcast to' }),
    passthrough: passthroughText.optional(),
    layout: z.enum(BROADCAST_LAYOUTS).optional().meta({ description: 'gallery (default, up to 10 participants), active-speaker or crop' }),
    background: text(MAX_URL_LENGTH)
      .regex(HTTP_URL_PATTERN, { error: 'must be an http or https URL' })
      .optional()
      .meta({ description: 'An image drawn behind the participants; its dimensions should match resolution' }),
    resolution: z.enum(BROADCAST_RESOLUTIONS).optional().meta({ description: 'The broadcast frame size (default 1920x1080)' }),
  })
  .strict();

/**
 * Spec 4.10 create body. How many broadcasts a space may have is the service's to say (one by default,
 * SPACES_BROADCAST_LIMIT); the schema caps the array at what a gallery can show.
 */
export const createSpaceBody = z
  .object({
    type: z.enum(SPACE_TYPES).optional().meta({ description: 'server (the default and only type: all video travels through the platform)' }),
    passthrough: passthroughText.optional(),
    broadcasts: z.array(broadcastInputBody).max(10).optional(),
  })
  .strict();

export const spaceListQuery = pagingQuery({ defaultLimit: 25, maxLimit: 100 });
export const spaceResponse = dataOf(spaceSchema);
export const spaceListResponse = listOf(spaceSchema);
export const broadcastResponse = dataOf(broadcastSchema);

export type BroadcastInputBody = z.output<typeof broadcastInputBody>;
export type CreateSpaceBody = z.output<typeof createSpaceBody>;
