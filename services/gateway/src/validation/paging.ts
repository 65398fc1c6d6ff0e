import { z } from 'zod';

/** The largest page number: PageRequest.page is an int32. */
const MAX_PAGE = 2_147_483_647;

/** A query-string integer: digits only (no sign, decimal point, exponent or hex), then range-checked. */
function queryInteger(min: number, max: number, fallback: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
    z.int({ error: (issue) => (issue.code === 'invalid_type' ? 'must be an integer' : undefined) }).min(min).max(max).default(fallback),
  );
}

/**
 * `limit` and `page` (spec 000 §1.7): integers ≥ 1, `page` defaults to 1. Out-of-range values
 * are refused, not clamped, so a caller learns of the mistake.
 */
export function pagingQuery({ defaultLimit = 25, maxLimit = 100 }: { defaultLimit?: number; maxLimit?: number } = {}) {
  return z.object({
    limit: queryInteger(1, maxLimit, defaultLimit),
    page: queryInteger(1, MAX_PAGE, 1),
  });
}

export type Paging = z.output<ReturnType<typeof pagingQuery>>;
