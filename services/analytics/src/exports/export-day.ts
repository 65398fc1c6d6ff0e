/** A UTC calendar day as `YYYY-MM-DD`, the `export_date` of a view export. */
export type ExportDate = string;

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written `YYYY-MM-DD` (not `2026-02-30`). */
export function isExportDate(value: string): value is ExportDate {
  if (!DATE_PATTERN.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** The UTC day holding the instant `ms`. */
export function utcDayOf(ms: number): ExportDate {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day's bounds in epoch ms: `[start, end)`, start at 00:00:00.000 UTC. */
export function dayBounds(date: ExportDate): { startMs: number; endMs: number } {
  if (!isExportDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  const startMs = Date.parse(`${date}T00:00:00Z`);
  return { startMs, endMs: startMs + DAY_MS };
}

/** The day `days` before `date` (negative: after). */
export function addDays(date: ExportDate, days: number): ExportDate {
  return utcDayOf(dayBounds(date).startMs + days * DAY_MS);
}

/**
 * The days an export should exist for at `nowMs`, newest first: the `retentionDays` complete days
 * before today, each only once `settleMs` past its end (views close up to the silence timeout late).
 */
export function retainedDays(nowMs: number, retentionDays: number, settleMs = 0): ExportDate[] {
  const newest = utcDayOf(nowMs - settleMs - DAY_MS);
  const oldest = addDays(utcDayOf(nowMs), -retentionDays);
  const days: ExportDate[] = [];
  for (let day = newest; day >= oldest; day = addDays(day, -1)) days.push(day);
  return days;
}

/** The first day that is no longer kept at `nowMs`: every export before it is deleted. */
export function oldestRetainedDay(nowMs: number, retentionDays: number): ExportDate {
  return addDays(utcDayOf(nowMs), -retentionDays);
}
