import { DomainError } from '@platform/errors';

const HOUR = 3600;
/** The oldest start the API reports on: usage is kept 90 days (spec 000 §4.6). */
export const MAX_AGE_SECONDS = 90 * 24 * HOUR;

/** A report window in Unix seconds: the hourly buckets starting in [start, end). */
export interface DeliveryWindow {
  start: number;
  end: number;
}

/**
 * The window of a delivery usage request (spec 000 §4.6). Without a timeframe: the hour that ended
 * `lagSeconds` before the request, aligned to hours (Mux: from 13 to 12 hours before). A timeframe
 * must start before it ends, within the last 90 days, and end no later than `lagSeconds` ago, when
 * the hours it covers are complete.
 */
export function deliveryWindow(timeframe: { start?: number; end?: number }, nowSeconds: number, lagSeconds: number): DeliveryWindow {
  const latestEnd = Math.floor(nowSeconds) - lagSeconds;
  const { start, end } = timeframe;
  if (start === undefined && end === undefined) {
    const alignedEnd = latestEnd - (((latestEnd % HOUR) + HOUR) % HOUR);
    return { start: alignedEnd - HOUR, end: alignedEnd };
  }
  if (start === undefined || end === undefined) throw DomainError.invalid('timeframe: give both the start and the end (Unix seconds), or neither');
  const problems: string[] = [];
  if (start >= end) problems.push('timeframe: the start must be before the end');
  if (start < Math.floor(nowSeconds) - MAX_AGE_SECONDS) problems.push('timeframe: the start must be within the last 90 days');
  if (end > latestEnd) problems.push(`timeframe: the end must be at least ${describeLag(lagSeconds)} before the request (${latestEnd} or earlier)`);
  if (problems.length > 0) throw DomainError.invalid(...problems);
  return { start, end };
}

function describeLag(seconds: number): string {
  if (seconds % HOUR === 0) return `${seconds / HOUR} hours`;
  return `${seconds} seconds`;
}
