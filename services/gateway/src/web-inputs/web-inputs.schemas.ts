import { HTTP_URL_PATTERN, MAX_URL_LENGTH } from '@platform/api-rules';
import { WEB_INPUT_RESOLUTIONS, webInputSchema } from '@platform/api-shapes';
import { z } from 'zod';
import { pagingQuery } from '../validation/paging';
import { passthroughText, text } from '../validation/text';
import { dataOf, listOf } from '../wire/wire';

/** The spec gives no bounds: 1 s to 12 h (the web-inputs service checks the same). */
export const MIN_TIMEOUT = 1;
export const MAX_TIMEOUT = 43_200;

/** The page the browser loads: http or https (the service also checks the host against OUTBOUND_ALLOW). */
const pageUrl = text(MAX_URL_LENGTH).regex(HTTP_URL_PATTERN, { error: 'must be an http or https URL' });

/** Spec 4.9 create body; absent fields take the defaults of 2.9. */
export const createWebInputBody = z
  .object({
    url: pageUrl.meta({ description: 'The page to load' }),
    live_stream_id: text(255).min(1).meta({ description: 'The live stream the page is streamed to' }),
    auto_launch: z.boolean().optional().meta({ description: 'Launch and stream as soon as it is created (default false)' }),
    passthrough: passthroughText.optional(),
    resolution: z.enum(WEB_INPUT_RESOLUTIONS).optional().meta({ description: 'The browser viewport (default 1920x1080)' }),
    timeout: z
      .number()
      .int()
      .min(MIN_TIMEOUT)
      .max(MAX_TIMEOUT)
      .optional()
      .meta({ description: `Seconds of streaming before an automatic shutdown (default 3600, ${MIN_TIMEOUT} to ${MAX_TIMEOUT})` }),
  })
  .strict();

/** Spec 4.9 PUT …/url body (only while idle). */
export const updateWebInputUrlBody = z.object({ url: pageUrl }).strict();

export const webInputListQuery = pagingQuery({ defaultLimit: 25, maxLimit: 100 });
export const webInputResponse = dataOf(webInputSchema);
export const webInputListResponse = listOf(webInputSchema);

export type CreateWebInputBody = z.output<typeof createWebInputBody>;
export type UpdateWebInputUrlBody = z.output<typeof updateWebInputUrlBody>;
