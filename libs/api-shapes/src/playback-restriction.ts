import { playbackAuth } from '@platform/proto';
import { z } from 'zod';
import { unixSecondsSchema, unixSecondsString } from './wire';

/** Spec 2.7 with Mux's `user_agent` rule. */
export const playbackRestrictionSchema = z.object({
  id: z.string(),
  created_at: unixSecondsSchema,
  updated_at: unixSecondsSchema,
  referrer: z.object({ allowed_domains: z.array(z.string()), allow_no_referrer: z.boolean() }),
  user_agent: z.object({ allow_no_user_agent: z.boolean(), allow_high_risk_user_agent: z.boolean() }),
});

export type PlaybackRestrictionBody = z.infer<typeof playbackRestrictionSchema>;

/** The API body and the data of `video.playback_restriction.*`. */
export function toPlaybackRestriction(r: playbackAuth.PlaybackRestriction): PlaybackRestrictionBody {
  return {
    id: r.id,
    created_at: unixSecondsString(r.created_at),
    updated_at: unixSecondsString(r.updated_at),
    referrer: {
      allowed_domains: [...(r.referrer?.allowed_domains ?? [])],
      allow_no_referrer: r.referrer?.allow_no_referrer ?? false,
    },
    user_agent: {
      allow_no_user_agent: r.user_agent?.allow_no_user_agent ?? false,
      allow_high_risk_user_agent: r.user_agent?.allow_high_risk_user_agent ?? false,
    },
  };
}
