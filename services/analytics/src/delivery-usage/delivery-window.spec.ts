import { DomainError } from '@platform/errors';
import { deliveryWindow, MAX_AGE_SECONDS } from './delivery-window';

const LAG = 12 * 3600;
const NOW = Date.parse('2026-11-27T13:25:41Z') / 1000;
const at = (iso: string) => Date.parse(iso) / 1000;

function refusal(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err.messages;
    throw err;
  }
  throw new Error('not refused');
}

describe('deliveryWindow (spec 000 §4.6)', () => {
  it('defaults to the hour from 13 to 12 hours before the request, aligned to hours', () => {
    expect(deliveryWindow({}, NOW, LAG)).toEqual({ start: at('2026-11-27T00:00:00Z'), end: at('2026-11-27T01:00:00Z') });
  });

  it('with no lag, defaults to the last complete hour', () => {
    expect(deliveryWindow({}, NOW, 0)).toEqual({ start: at('2026-11-27T12:00:00Z'), end: at('2026-11-27T13:00:00Z') });
  });

  it('takes a timeframe within the last 90 days ending 12 hours ago or earlier, as given', () => {
    const timeframe = { start: NOW - MAX_AGE_SECONDS, end: NOW - LAG };
    expect(deliveryWindow(timeframe, NOW, LAG)).toEqual(timeframe);
    expect(deliveryWindow({ start: NOW - 7200, end: NOW }, NOW, 0)).toEqual({ start: NOW - 7200, end: NOW });
  });

  it.each([
    ['a start only', { start: NOW - 86400 }, ['timeframe: give both the start and the end (Unix seconds), or neither']],
    ['an end only', { end: NOW - 86400 }, ['timeframe: give both the start and the end (Unix seconds), or neither']],
    ['a start after the end', { start: NOW - 86400, end: NOW - 90000 }, ['timeframe: the start must be before the end']],
    ['an empty window', { start: NOW - 86400, end: NOW - 86400 }, ['timeframe: the start must be before the end']],
    ['a start older than 90 days', { start: NOW - MAX_AGE_SECONDS - 1, end: NOW - 86400 }, ['timeframe: the start must be within the last 90 days']],
    [
      'an end later than 12 hours ago',
      { start: NOW - 86400, end: NOW - LAG + 1 },
      [`timeframe: the end must be at least 12 hours before the request (${NOW - LAG} or earlier)`],
    ],
  ])('refuses %s', (_label, timeframe, messages) => {
    expect(refusal(() => deliveryWindow(timeframe, NOW, LAG))).toEqual(messages);
  });
});
