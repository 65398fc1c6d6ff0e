import { AnalyticsStore, StoreParams } from './analytics-store.port';

/** A list query in parts: its columns, everything from FROM to HAVING, and its order. */
export interface PagedSelect {
  columns: string;
  from: string;
  orderBy: string;
}

/**
 * One page of a list and the number of rows in all its pages, read in one query: `count() OVER ()` is taken
 * before LIMIT, so the two always agree. Counted in a query of its own, a row landing between the two reads
 * would be on the page but not in the count, or the other way round. A page past the end has no row to carry
 * the count, so only then is it counted apart.
 */
export async function pageWithTotal<T extends Record<string, unknown>>(
  store: AnalyticsStore,
  select: PagedSelect,
  params: StoreParams,
  page: { limit: number; offset: number },
): Promise<{ rows: T[]; total: number }> {
  const found = await store.query<T & { total_rows: number | string }>(
    `SELECT ${select.columns}, count() OVER () AS total_rows ${select.from} ORDER BY ${select.orderBy} LIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
    { ...params, limit: page.limit, offset: page.offset },
  );
  const rows = found.map(({ total_rows: _total, ...row }) => row as unknown as T);
  if (found.length > 0) return { rows, total: Number(found[0].total_rows) };
  if (page.offset === 0) return { rows, total: 0 };
  const [count] = await store.query<{ total: number | string }>(`SELECT count() AS total FROM (SELECT ${select.columns} ${select.from})`, params);
  return { rows, total: Number(count?.total ?? 0) };
}
