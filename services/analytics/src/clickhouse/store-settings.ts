/**
 * Settings both adapters run every statement with, so the same SQL gives the same JSON: 64-bit
 * integers as JSON numbers (clickhouse-server quotes them by default, chDB does not), DateTime as
 * `YYYY-MM-DD hh:mm:ss[.sss]`, inserts that accept ISO 8601 strings (what JSON.stringify makes
 * of a Date) for DateTime columns, and FINAL within partitions (every partitioned table read with
 * FINAL must keep all versions of a row in one partition).
 */
export const STORE_SETTINGS = {
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_64bit_floats: 0,
  output_format_json_quote_decimals: 0,
  date_time_output_format: 'simple',
  date_time_input_format: 'best_effort',
  input_format_skip_unknown_fields: 0,
  // FINAL merges each partition on its own: a row's versions share its partition (views.migrations.ts 102).
  do_not_merge_across_partitions_select_final: 1,
} as const;

/** A table name an insert may target: `name` or `database.name`, never anything to quote. */
export function assertTableName(table: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(table)) {
    throw new Error(`not a table name: ${JSON.stringify(table)}`);
  }
}

/** Rows as JSONEachRow text: the one insert format of both adapters. */
export function toJsonEachRow(rows: readonly Record<string, unknown>[]): string {
  return rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
}

/** JSONEachRow output as objects. */
export function parseJsonEachRow<T>(text: string): T[] {
  const rows: T[] = [];
  for (const line of text.split('\n')) if (line.trim()) rows.push(JSON.parse(line) as T);
  return rows;
}
