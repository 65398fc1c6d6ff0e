import { z } from 'zod';

/** A playback id as assets and live streams show it (spec 2.1, 2.3). */
export const playbackIdSchema = z.object({ id: z.string(), policy: z.enum(['public', 'signed']) });

export type PlaybackIdBody = z.infer<typeof playbackIdSchema>;

/** From the proto PlaybackId (assets.PlaybackId, also the live stream's). */
export function toPlaybackId(p: { id: string; policy: string }): PlaybackIdBody {
  return { id: p.id, policy: p.policy as PlaybackIdBody['policy'] };
}
