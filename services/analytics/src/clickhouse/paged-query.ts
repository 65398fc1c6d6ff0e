import { AnalyticsStore, StoreParams } from './analytics-store.port';

/** A list query in parts: its columns, everything from FROM to HAVING, and its order. */
export interface PagedSelect {
  columns: string;
  from: string;
  orderBy: string;
}

/**
 * One page of a list and the number of rows in all its pages, in one statement: the count is a scalar subquery
 * beside the page, so the page keeps ClickHouse's top-N sort (a window `count() OVER ()` would sort every
 * matching row). ClickHouse evaluates the scalar before it reads the page, so a row can still land between
 * the two: a total below what the page shows (its offset and rows) is raised to it, never answered as is (two
 * statements once showed a view on the page with a total of 0). A page past the end has no row to carry the
 * count, so only then is it counted apart.
 */
export async function pageWithTotal<T extends Record<string, unknown>>(
  store: AnalyticsStore,
  select: PagedSelect,
  params: StoreParams,
  page: { limit: number; offset: number },
): Promise<{ rows: T[]; total: number }> {
  const counted = `SELECT count() AS total FROM (SELECT ${select.columns} ${select.from})`;
  const found = await store.query<T & { total_rows: number | string }>(
    `SELECT ${select.columns}, (${counted}) AS total_rows ${select.from} ORDER BY ${select.orderBy} LIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
    { ...params, limit: page.limit, offset: page.offset },
  );
  const rows = found.map(({ total_rows: _total, ...row }) => row as unknown as T);
  if (found.length > 0) return { rows, total: Math.max(Number(found[0].total_rows), page.offset + rows.length) };
  if (page.offset === 0) return { rows, total: 0 };
  const [count] = await store.query<{ total: number | string }>(counted, params);
  return { rows, total: Number(count?.total ?? 0) };
}
