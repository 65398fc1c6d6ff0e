import { z } from 'zod';

/** The largest page number: PageRequest.page is an int32. */
const MAX_PAGE = 2_147_483_647;

/** A query-string integer: digits only (no sign, decimal point, exponent or hex), then range-checked. */
function queryInteger(min: number, max: number, fallback: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
    z
      .int({ error: (issue) => (issue.code === 'invalid_type' ? 'must be an integer' : undefined) })
      .min(min)
      .max(max)
      .default(fallback),
  );
}

/** A page size: an integer ≥ 1; above the list's maximum it is that maximum (as Mux answers). */
function pageSize(maxLimit: number, fallback: number) {
  return z
    .preprocess(
      (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value)) ? Math.min(Number(value), maxLimit) : value),
      z
        .int({ error: (issue) => (issue.code === 'invalid_type' ? 'must be an integer' : undefined) })
        .min(1)
        .default(fallback),
    )
    .meta({ description: `Items per page, default ${fallback}; a larger value than ${maxLimit} is taken as ${maxLimit}` });
}

/**
 * `limit` and `page` (spec 000 §1.7): integers ≥ 1, `page` defaults to 1. A `limit` above the
 * list's maximum is clamped to it, so a client asking for more gets the most the API gives;
 * anything else out of range is refused, so a caller learns of the mistake.
 */
export function pagingQuery({ defaultLimit = 25, maxLimit = 100 }: { defaultLimit?: number; maxLimit?: number } = {}) {
  return z.object({
    limit: pageSize(maxLimit, defaultLimit),
    page: queryInteger(1, MAX_PAGE, 1),
  });
}

export type Paging = z.output<ReturnType<typeof pagingQuery>>;
