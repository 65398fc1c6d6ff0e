import { playbackAuth } from '@platform/proto';
import { referrerAllowed } from '../playback-restrictions/referrer-rule';

/**
 * Why a playback restriction refuses this request, or undefined when it allows it. The
 * referrer rule is Mux's (see referrer-rule.ts). Of the user-agent rule only
 * `allow_no_user_agent` can be decided honestly; `allow_high_risk_user_agent: false` is
 * stored but not enforced, as no high-risk detection exists here.
 */
export function restrictionRefusal(
  restriction: playbackAuth.PlaybackRestriction,
  referer: string | undefined,
  userAgent: string | undefined,
): string | undefined {
  const referrer = restriction.referrer ?? { allowed_domains: [], allow_no_referrer: false };
  if (!referrerAllowed(referrer, referer)) {
    return isBlank(referer) ? 'A Referer header is required by the playback restriction' : 'The Referer domain is not allowed by the playback restriction';
  }
  if (restriction.user_agent && !restriction.user_agent.allow_no_user_agent && isBlank(userAgent)) {
    return 'A User-Agent header is required by the playback restriction';
  }
  return undefined;
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}
