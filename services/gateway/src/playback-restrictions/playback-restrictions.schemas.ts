import { playbackRestrictionSchema } from '@platform/api-shapes';
import { z } from 'zod';
import { pagingQuery } from '../validation/paging';
import { dataOf } from '../wire/wire';
import { ALLOWED_DOMAIN_MAX_LENGTH, ALLOWED_DOMAIN_PATTERN } from '@platform/api-rules';

export const MAX_ALLOWED_DOMAINS = 10;

const notADomain = (issue: { input?: unknown }) => `${JSON.stringify(issue.input)} is not a valid domain (use *, a hostname or *.hostname)`;
const allowedDomain = z
  .string()
  .max(ALLOWED_DOMAIN_MAX_LENGTH, { error: notADomain })
  .regex(ALLOWED_DOMAIN_PATTERN, { error: notADomain })
  .transform((d) => d.toLowerCase());

/** Spec 2.7 `referrer` as sent: `[]` denies every domain, `["*"]` allows any. */
export const referrerInput = z
  .object({
    allowed_domains: z
      .array(allowedDomain)
      .max(MAX_ALLOWED_DOMAINS, { error: `must have at most ${MAX_ALLOWED_DOMAINS} entries` })
      .meta({ description: '`[]` denies all domains, `["*"]` allows any, otherwise up to 10 hostnames or `*.` wildcards' }),
    allow_no_referrer: z.boolean().default(false).meta({ description: 'Allow requests without a Referer header (native apps, TVs)' }),
  })
  .strict();

/**
 * Mux's `user_agent` rule (not in spec 000; the SDK sends and reads it). Mux documents both
 * flags as defaulting to true, on create and on PUT …/user_agent alike.
 */
export const userAgentInput = z
  .object({
    allow_no_user_agent: z.boolean().default(true).meta({ description: 'Allow requests without a User-Agent header' }),
    allow_high_risk_user_agent: z.boolean().default(true).meta({ description: 'Allow user agents classed as high risk' }),
  })
  .strict();

export const createPlaybackRestrictionBody = z
  .object({
    referrer: referrerInput,
    // left out, or `{}`: both flags take their defaults
    user_agent: userAgentInput.prefault({}),
  })
  .strict();

export const playbackRestrictionListQuery = pagingQuery();

export const playbackRestrictionResponse = dataOf(playbackRestrictionSchema);
export const playbackRestrictionListResponse = z.object({
  data: z.array(playbackRestrictionSchema),
  total_row_count: z.int(),
  page: z.int(),
  limit: z.int(),
});

export type ReferrerInput = z.output<typeof referrerInput>;
export type UserAgentInput = z.output<typeof userAgentInput>;
export type CreatePlaybackRestrictionBody = z.output<typeof createPlaybackRestrictionBody>;
