import { z } from 'zod';
import { pagingQuery } from '../validation/paging';
import { dataOf, unixSecondsSchema } from '../wire/wire';
import { isAllowedDomain } from './allowed-domain';

export const MAX_ALLOWED_DOMAINS = 10;

const allowedDomain = z
  .string()
  .refine(isAllowedDomain, { error: (issue) => `${JSON.stringify(issue.input)} is not a valid domain (use *, a hostname or *.hostname)` })
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

/** The SDK's types ask for `user_agent` on create; it is not in the spec, so it is accepted and ignored. */
const userAgentInput = z
  .object({ allow_no_user_agent: z.boolean().optional(), allow_high_risk_user_agent: z.boolean().optional() })
  .strict()
  .meta({ description: 'Accepted for SDK compatibility; not applied' });

export const createPlaybackRestrictionBody = z.object({ referrer: referrerInput, user_agent: userAgentInput.optional() }).strict();

export const playbackRestrictionSchema = z.object({
  id: z.string(),
  created_at: unixSecondsSchema,
  updated_at: unixSecondsSchema,
  referrer: z.object({ allowed_domains: z.array(z.string()), allow_no_referrer: z.boolean() }),
});

export const playbackRestrictionListQuery = pagingQuery();

export const playbackRestrictionResponse = dataOf(playbackRestrictionSchema);
export const playbackRestrictionListResponse = z.object({
  data: z.array(playbackRestrictionSchema),
  total_row_count: z.int(),
  page: z.int(),
  limit: z.int(),
});

export type ReferrerInput = z.output<typeof referrerInput>;
export type CreatePlaybackRestrictionBody = z.output<typeof createPlaybackRestrictionBody>;
export type PlaybackRestrictionBody = z.infer<typeof playbackRestrictionSchema>;
