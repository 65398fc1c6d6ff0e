import { webInputs } from '@platform/proto';
import { z } from 'zod';
import { unixSecondsSchema, unixSecondsString } from './wire';

export const WEB_INPUT_RESOLUTIONS = ['1920x1080', '1280x720', '1080x1920', '720x1280', '1080x1080', '720x720'] as const;
export const WEB_INPUT_STATUSES = ['idle', 'launching', 'streaming'] as const;

/** Spec 2.9. */
export const webInputSchema = z.object({
  id: z.string(),
  created_at: unixSecondsSchema,
  url: z.string(),
  auto_launch: z.boolean(),
  live_stream_id: z.string(),
  status: z.enum(WEB_INPUT_STATUSES),
  passthrough: z.string().optional(),
  resolution: z.enum(WEB_INPUT_RESOLUTIONS),
  timeout: z.number().int(),
});

export type WebInputResponseBody = z.infer<typeof webInputSchema>;

/** The API body and the data of `video.web_input.*`. */
export function toWebInput(w: webInputs.WebInput): WebInputResponseBody {
  return {
    id: w.id,
    created_at: unixSecondsString(w.created_at),
    url: w.url,
    auto_launch: w.auto_launch,
    live_stream_id: w.live_stream_id,
    status: w.status as WebInputResponseBody['status'],
    ...(w.passthrough !== undefined ? { passthrough: w.passthrough } : {}),
    resolution: w.resolution as WebInputResponseBody['resolution'],
    timeout: w.timeout,
  };
}
