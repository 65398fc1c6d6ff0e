/** A resolved `timeframe[]`: epoch seconds, start inclusive, end exclusive. */
export interface Timeframe {
  start: number;
  end: number;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { minute: 60, hour: 3_600, day: 86_400, week: 604_800 };
const DURATION = /^(\d{1,6}):(minute|hour|day|week)s?$/;
const EPOCH = /^\d{1,12}$/;

/** The default Data API window when `timeframe[]` is left out: the last 24 hours (as Mux). */
export const DEFAULT_TIMEFRAME_SECONDS = 86_400;

/**
 * Spec 001 §1 `timeframe[]`: two epoch seconds (start, end), or one duration `N:unit` (`24:hours`,
 * `7:days`, also minutes and weeks) ending now. Returns the window or why the value is refused.
 */
export function parseTimeframe(values: readonly string[] | undefined, nowMs: number): Timeframe | string {
  const now = Math.floor(nowMs / 1000);
  if (!values || values.length === 0) return { start: now - DEFAULT_TIMEFRAME_SECONDS, end: now };
  if (values.length === 1) {
    const match = DURATION.exec(values[0]);
    if (!match) return `${JSON.stringify(values[0])} is not a duration such as 24:hours or 7:days (or give two epoch seconds)`;
    const seconds = Number(match[1]) * UNIT_SECONDS[match[2]];
    if (seconds === 0) return 'the duration must be more than 0';
    return { start: now - seconds, end: now };
  }
  if (values.length !== 2) return `takes one duration or two epoch seconds, not ${values.length} values`;
  const bad = values.find((v) => !EPOCH.test(v));
  if (bad !== undefined) return `${JSON.stringify(bad)} is not an epoch time in seconds`;
  const [start, end] = values.map(Number);
  if (start >= end) return 'the start must be before the end';
  return { start, end };
}
