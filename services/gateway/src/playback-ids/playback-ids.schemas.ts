import { z } from 'zod';
import { dataOf } from '../wire/wire';

/** Spec 2.5: the playback id and the object that owns it. */
export const playbackIdOwnerSchema = z.object({
  id: z.string(),
  policy: z.enum(['public', 'signed']),
  object: z.object({ type: z.enum(['asset', 'live_stream']), id: z.string() }),
});

export const playbackIdOwnerResponse = dataOf(playbackIdOwnerSchema);

export type PlaybackIdOwnerBody = z.infer<typeof playbackIdOwnerSchema>;
