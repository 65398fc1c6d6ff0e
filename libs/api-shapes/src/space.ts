import { spaces } from '@platform/proto';
import { z } from 'zod';
import { WEB_INPUT_RESOLUTIONS } from './web-input';
import { unixSecondsSchema, unixSecondsString } from './wire';

/** A broadcast's frame sizes are a web input's (spec 2.10: the same six values). */
export const BROADCAST_RESOLUTIONS = WEB_INPUT_RESOLUTIONS;
export const BROADCAST_LAYOUTS = ['gallery', 'active-speaker', 'crop'] as const;
export const SPACE_TYPES = ['server'] as const;

/** Spec 2.10: a broadcast of a space to a live stream. */
export const broadcastSchema = z.object({
  id: z.string(),
  passthrough: z.string().optional(),
  live_stream_id: z.string(),
  status: z.enum(['idle', 'active']),
  layout: z.enum(BROADCAST_LAYOUTS),
  background: z.string().optional(),
  resolution: z.enum(BROADCAST_RESOLUTIONS),
});

/** Spec 2.10: a real-time room. */
export const spaceSchema = z.object({
  id: z.string(),
  created_at: unixSecondsSchema,
  type: z.enum(SPACE_TYPES),
  status: z.enum(['idle', 'active']),
  passthrough: z.string().optional(),
  broadcasts: z.array(broadcastSchema),
  active_session_id: z.string().optional(),
});

/** The data of `video.space.broadcast.*`: the broadcast with its space's id (as simulcast-target events carry their stream's). */
export const broadcastEventSchema = broadcastSchema.extend({ space_id: z.string() });

export type BroadcastBody = z.infer<typeof broadcastSchema>;
export type SpaceBody = z.infer<typeof spaceSchema>;
export type BroadcastEventBody = z.infer<typeof broadcastEventSchema>;

export function toBroadcast(b: spaces.Broadcast): BroadcastBody {
  return {
    id: b.id,
    ...(b.passthrough !== undefined ? { passthrough: b.passthrough } : {}),
    live_stream_id: b.live_stream_id,
    status: b.status as BroadcastBody['status'],
    layout: b.layout as BroadcastBody['layout'],
    ...(b.background !== undefined ? { background: b.background } : {}),
    resolution: b.resolution as BroadcastBody['resolution'],
  };
}

/** The API body and the data of `video.space.*`. */
export function toSpace(s: spaces.Space): SpaceBody {
  return {
    id: s.id,
    created_at: unixSecondsString(s.created_at),
    type: s.type as SpaceBody['type'],
    status: s.status as SpaceBody['status'],
    ...(s.passthrough !== undefined ? { passthrough: s.passthrough } : {}),
    broadcasts: s.broadcasts.map(toBroadcast),
    ...(s.active_session_id !== undefined ? { active_session_id: s.active_session_id } : {}),
  };
}

export function toBroadcastEvent(spaceId: string, b: spaces.Broadcast): BroadcastEventBody {
  return { ...toBroadcast(b), space_id: spaceId };
}
