import { playbackAuth } from '@platform/proto';

/**
 * Mux's user-agent rule of a playback restriction (not in spec 000; the SDK sends and reads
 * it). Mux documents both flags as defaulting to true: a rule nobody set refuses no viewer.
 */
export const DEFAULT_USER_AGENT_RULE: Readonly<playbackAuth.UserAgentRule> = {
  allow_no_user_agent: true,
  allow_high_risk_user_agent: true,
};

/** The rule to store: the one sent, or Mux's defaults when none was. */
export function userAgentRuleOrDefault(rule: playbackAuth.UserAgentRule | null | undefined): playbackAuth.UserAgentRule {
  const { allow_no_user_agent, allow_high_risk_user_agent } = rule ?? DEFAULT_USER_AGENT_RULE;
  return { allow_no_user_agent: allow_no_user_agent === true, allow_high_risk_user_agent: allow_high_risk_user_agent === true };
}
