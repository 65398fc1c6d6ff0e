import { playbackAuth } from '@platform/proto';
import { unixSecondsString } from '../wire/wire';
import { PlaybackRestrictionBody } from './playback-restrictions.schemas';

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
