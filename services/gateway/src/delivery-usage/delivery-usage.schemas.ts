import { z } from 'zod';
import { pagingQuery } from '../validation/paging';

/** Mux's default page of delivery usage, and the most the service answers (a larger `limit` is taken as this). */
export const DELIVERY_USAGE_LIMIT = 100;

const unixSeconds = /^\d{1,12}$/;
const TIMEFRAME_MESSAGE = 'must be two Unix times in seconds: the start, then the end';

/**
 * `timeframe[]=<start>&timeframe[]=<end>` as the SDK writes it (qs `brackets`), which the query
 * parser gives as one key `timeframe[]`: two integers, or left out for the default hour.
 */
const timeframe = z
  .union([z.string(), z.array(z.string())], { error: TIMEFRAME_MESSAGE })
  .refine((v) => Array.isArray(v) && v.length === 2 && v.every((s) => unixSeconds.test(s)), { error: TIMEFRAME_MESSAGE })
  .transform((v) => (v as string[]).map(Number) as [number, number])
  .refine(([start, end]) => start < end, { error: 'the start must be before the end' })
  .optional()
  .meta({
    description:
      'Start and end, Unix seconds (repeat the parameter). Within the last 90 days, ending at least 12 hours before the request; default: the hour from 13 to 12 hours before it',
  });

/** Spec 000 §4.6 query. `asset_id` and `live_stream_id` cannot be combined. */
export const deliveryUsageListQuery = pagingQuery({ defaultLimit: DELIVERY_USAGE_LIMIT, maxLimit: DELIVERY_USAGE_LIMIT })
  .extend({
    asset_id: z.string().min(1).optional().meta({ description: 'Only this asset; not with live_stream_id' }),
    live_stream_id: z.string().min(1).optional().meta({ description: 'Only the assets recorded from this live stream; not with asset_id' }),
    'timeframe[]': timeframe,
  })
  .superRefine((query, ctx) => {
    if (query.asset_id !== undefined && query.live_stream_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['asset_id'], message: 'cannot be combined with live_stream_id' });
    }
  });
export type DeliveryUsageListQuery = z.output<typeof deliveryUsageListQuery>;

const seconds = z.number().meta({ description: 'Seconds delivered in the tier' });

/** Spec 000 §2.11 (SDK 15 DeliveryReport). */
export const deliveryReportSchema = z.object({
  asset_id: z.string(),
  live_stream_id: z.string().optional(),
  passthrough: z.string().optional(),
  asset_duration: z.number(),
  asset_state: z.enum(['ready', 'errored', 'deleted']),
  asset_resolution_tier: z.enum(['audio-only', '720p', '1080p', '1440p', '2160p']),
  asset_encoding_tier: z.enum(['smart', 'baseline', 'premium']).meta({ description: 'Deprecated: use asset_video_quality' }),
  asset_video_quality: z.enum(['basic', 'plus', 'premium']).optional(),
  created_at: z.string().meta({ description: 'Unix seconds' }),
  deleted_at: z.string().optional().meta({ description: 'Unix seconds; only for deleted assets' }),
  delivered_seconds: z.number(),
  delivered_seconds_by_resolution: z
    .object({
      tier_audio_only: seconds.optional(),
      tier_720p: seconds.optional(),
      tier_1080p: seconds.optional(),
      tier_1440p: seconds.optional(),
      tier_2160p: seconds.optional(),
    })
    .meta({ description: 'Each tier present only when something was delivered in it' }),
});
export type DeliveryReportBody = z.output<typeof deliveryReportSchema>;

export const deliveryUsageListResponse = z.object({
  data: z.array(deliveryReportSchema),
  total_row_count: z.int(),
  timeframe: z.tuple([z.int(), z.int()]),
  page: z.int(),
  limit: z.int(),
});
