import { AnalyticsStore, StoreParams } from '../../clickhouse/analytics-store.port';

/** A view as the fake holds it: `view_end` as the store writes it (`YYYY-MM-DD hh:mm:ss.sss`). */
export type FakeView = Record<string, unknown> & { view_id: string; view_end: string | null };

const msOf = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);

/**
 * An AnalyticsStore that answers the export's page query over views in memory (by its parameters,
 * not its SQL), counting the queries: enough to test paging without ClickHouse.
 */
export class PagingViewsStore implements AnalyticsStore {
  queries = 0;

  constructor(readonly views: FakeView[]) {}

  query<T>(_sql: string, params: StoreParams = {}): Promise<T[]> {
    this.queries++;
    const { start, end, after_ms, after_id, limit } = params as { start: number; end: number; after_ms: number; after_id: string; limit: number };
    const rows = this.views
      .filter((v) => v.view_end !== null)
      .map((v) => ({ ...v, export_cursor_ms: msOf(v.view_end as string) }))
      .filter((v) => v.export_cursor_ms >= start && v.export_cursor_ms < end)
      .filter((v) => v.export_cursor_ms > after_ms || (v.export_cursor_ms === after_ms && v.view_id > after_id))
      .sort((a, b) => a.export_cursor_ms - b.export_cursor_ms || (a.view_id < b.view_id ? -1 : 1))
      .slice(0, limit) as unknown as T[];
    return Promise.resolve(rows);
  }

  async command(): Promise<void> {}
  async insert(): Promise<void> {}
  ping(): Promise<boolean> {
    return Promise.resolve(true);
  }
  async close(): Promise<void> {}
}
