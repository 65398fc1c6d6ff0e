import { once } from 'node:events';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip, Gzip } from 'node:zlib';
import { AnalyticsStore } from '../clickhouse/analytics-store.port';
import { csvLine } from './csv';
import { exportColumns } from './export-columns';
import { ExportDate, dayBounds } from './export-day';

/** Views read from the store per query: bounds memory whatever the size of the day. */
export const DEFAULT_PAGE_SIZE = 5_000;

type CursorRow = Record<string, unknown> & { export_cursor_ms: number | string; view_id: string };

/** Keyset paging on (view_end, view_id): stable however many pages, unlike OFFSET. */
function pageSql(columns: readonly string[]): string {
  return `SELECT ${columns.join(', ')}, toUnixTimestamp64Milli(view_end) AS export_cursor_ms
FROM views FINAL
WHERE view_end >= fromUnixTimestamp64Milli({start:Int64}, 'UTC') AND view_end < fromUnixTimestamp64Milli({end:Int64}, 'UTC')
  AND (toUnixTimestamp64Milli(view_end), view_id) > ({after_ms:Int64}, {after_id:String})
ORDER BY view_end, view_id
LIMIT {limit:UInt32}`;
}

async function write(gzip: Gzip, text: string): Promise<void> {
  if (!gzip.write(text)) await once(gzip, 'drain');
}

/**
 * Writes the closed views whose `view_end` falls on `date` (UTC) to `filePath` as a gzip CSV: a
 * header row of column names, then one row per view ordered by view_end, view_id. Returns the view count.
 */
export async function writeViewsCsvGzip(store: AnalyticsStore, date: ExportDate, filePath: string, pageSize = DEFAULT_PAGE_SIZE): Promise<number> {
  const columns = exportColumns();
  const sql = pageSql(columns);
  const { startMs, endMs } = dayBounds(date);
  const gzip = createGzip();
  const written = pipeline(gzip, fs.createWriteStream(filePath));
  let count = 0;
  try {
    await write(gzip, csvLine(columns));
    let after = { ms: -1, id: '' };
    for (;;) {
      const page = await store.query<CursorRow>(sql, { start: startMs, end: endMs, after_ms: after.ms, after_id: after.id, limit: pageSize });
      if (page.length > 0) await write(gzip, page.map((row) => csvLine(columns.map((c) => row[c]))).join(''));
      count += page.length;
      if (page.length < pageSize) break;
      const last = page[page.length - 1];
      after = { ms: Number(last.export_cursor_ms), id: last.view_id };
    }
    gzip.end();
    await written;
    return count;
  } catch (err) {
    gzip.destroy(err as Error);
    await written.catch(() => undefined);
    throw err;
  }
}
