import { unixSeconds } from '@platform/ids';
import { playbackAuth } from '@platform/proto';
import { PlaybackRestrictionEntity } from './playback-restriction.entity';

export function toPlaybackRestrictionMessage(r: PlaybackRestrictionEntity): playbackAuth.PlaybackRestriction {
  return {
    id: r.id,
    created_at: Number(unixSeconds(r.createdAt)),
    updated_at: Number(unixSeconds(r.updatedAt)),
    referrer: referrerOf(r),
    user_agent: userAgentOf(r),
  };
}

function referrerOf(r: PlaybackRestrictionEntity): playbackAuth.ReferrerRule {
  return { allowed_domains: [...r.allowedDomains], allow_no_referrer: r.allowNoReferrer };
}

function userAgentOf(r: PlaybackRestrictionEntity): playbackAuth.UserAgentRule {
  return { allow_no_user_agent: r.allowNoUserAgent, allow_high_risk_user_agent: r.allowHighRiskUserAgent };
}
