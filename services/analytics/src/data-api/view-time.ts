/** ClickHouse DateTime64 text (`2026-11-27 13:00:00.000`, UTC) as ISO 8601 (`2026-11-27T13:00:00.000Z`). */
export function isoOf(text: string): string;
export function isoOf(text: string | null): string | null;
export function isoOf(text: string | null): string | null {
  if (text === null) return null;
  return `${text.replace(' ', 'T')}${text.includes('.') ? '' : '.000'}Z`;
}
