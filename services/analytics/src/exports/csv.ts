/** RFC 4180 line break. */
export const CSV_EOL = '\r\n';

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break (or starts or ends
 * with a space), inner quotes doubled. Null and undefined are the empty field; objects are JSON.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
        ? `${value}`
        : JSON.stringify(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record with its line break. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + CSV_EOL;
}
