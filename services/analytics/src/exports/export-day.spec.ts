import { addDays, dayBounds, isExportDate, oldestRetainedDay, retainedDays, utcDayOf } from './export-day';

const at = (iso: string) => Date.parse(iso);

describe('export days (UTC)', () => {
  it('accepts real YYYY-MM-DD dates only', () => {
    expect(isExportDate('2026-03-01')).toBe(true);
    expect(isExportDate('2024-02-29')).toBe(true);
    for (const bad of ['2026-02-30', '2025-02-29', '2026-3-01', '2026-03-01T00:00:00Z', '../etc', '']) expect(isExportDate(bad)).toBe(false);
  });

  it('bounds a day from 00:00:00.000 UTC, end exclusive', () => {
    expect(dayBounds('2026-03-01')).toEqual({ startMs: at('2026-03-01T00:00:00Z'), endMs: at('2026-03-02T00:00:00Z') });
    expect(utcDayOf(at('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
    expect(utcDayOf(at('2026-03-02T00:00:00.000Z'))).toBe('2026-03-02');
    expect(() => dayBounds('2026-13-01')).toThrow(RangeError);
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });

  it('keeps the retention window of complete days before today, newest first', () => {
    const days = retainedDays(at('2026-03-10T12:00:00Z'), 7);
    expect(days).toEqual(['2026-03-09', '2026-03-08', '2026-03-07', '2026-03-06', '2026-03-05', '2026-03-04', '2026-03-03']);
    expect(oldestRetainedDay(at('2026-03-10T12:00:00Z'), 7)).toBe('2026-03-03');
  });

  it('waits for the previous day to settle after midnight', () => {
    const settle = 75 * 60_000;
    expect(retainedDays(at('2026-03-10T01:00:00Z'), 2, settle)).toEqual(['2026-03-08']);
    expect(retainedDays(at('2026-03-10T01:15:00Z'), 2, settle)).toEqual(['2026-03-09', '2026-03-08']);
  });
});
