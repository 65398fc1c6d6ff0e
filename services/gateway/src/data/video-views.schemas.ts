import { z } from 'zod';
import { pagingQuery } from '../validation/paging';
import { dataQueryFields, envelopeFields } from './data-query.schemas';

export const videoViewListQuery = pagingQuery({ defaultLimit: 25, maxLimit: 1000 }).extend({
  ...dataQueryFields,
  viewer_id: z.string().min(1).max(1024).optional().meta({ description: 'Only the views of this viewer (`viewer_user_id`, else the player cookie id)' }),
  error_id: z
    .string()
    .regex(/^(\d{1,10}|any)$/, { error: 'must be an error_type_id (an integer) or any' })
    .optional()
    .meta({ description: 'Only the views with this error (`error_type_id`), or with any error (`any`)' }),
  order_direction: z.enum(['asc', 'desc']).default('desc').meta({ description: 'By view end' }),
});
export type VideoViewListQuery = z.output<typeof videoViewListQuery>;

/** Spec 001 §2.1 (and the SDK's AbridgedVideoView). */
export const videoViewListItem = z.object({
  id: z.string(),
  view_start: z.string(),
  view_end: z.string(),
  video_title: z.string().nullable(),
  viewer_os_family: z.string().nullable(),
  viewer_application_name: z.string().nullable(),
  country_code: z.string().nullable(),
  player_error_message: z.string().nullable(),
  player_error_code: z.string().nullable(),
  error_type_id: z.int().nullable(),
  playback_failure: z.boolean(),
  viewer_experience_score: z.number().nullable(),
  watch_time: z.number().nullable(),
  total_row_count: z.int(),
});

export const videoViewListResponse = z.object({ data: z.array(videoViewListItem), ...envelopeFields });

const viewEvent = z.object({
  name: z.string(),
  event_time: z.number(),
  viewer_time: z.number(),
  playback_time: z.number().nullable(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** Spec 001 §2.2: the view's fields (a couple of hundred, Mux's names) and its event timeline. */
export const videoViewDetail = z.looseObject({
  id: z.string(),
  view_id: z.string(),
  view_start: z.string(),
  view_end: z.string().nullable(),
  events: z.array(viewEvent),
});
export const videoViewResponse = z.object({ data: videoViewDetail, ...envelopeFields });
