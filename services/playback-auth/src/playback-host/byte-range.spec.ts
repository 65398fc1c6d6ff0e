import { parseRange, RangeRequest } from './byte-range';

describe('parseRange (one byte range, RFC 9110)', () => {
  const whole: RangeRequest = { kind: 'whole' };
  const unsatisfiable: RangeRequest = { kind: 'unsatisfiable' };
  const range = (start: number, end: number): RangeRequest => ({ kind: 'range', start, end });

  it.each<[string | undefined, number, RangeRequest]>([
    [undefined, 1000, whole],
    ['bytes=0-99', 1000, range(0, 99)],
    ['bytes=188-375', 1000, range(188, 375)],
    ['bytes=0-0', 1000, range(0, 0)],
    ['bytes=999-999', 1000, range(999, 999)],
    ['bytes=500-', 1000, range(500, 999)],
    ['bytes=0-', 1000, range(0, 999)],
    ['bytes=900-5000', 1000, range(900, 999)], // end past the object: clamped
    ['bytes=-100', 1000, range(900, 999)],
    ['bytes=-5000', 1000, range(0, 999)], // suffix longer than the object: all of it
    [' bytes = 10 - 20 ', 1000, range(10, 20)],
    // outside the object
    ['bytes=1000-', 1000, unsatisfiable],
    ['bytes=1000-2000', 1000, unsatisfiable],
    ['bytes=-0', 1000, unsatisfiable],
    ['bytes=0-', 0, unsatisfiable],
    ['bytes=-10', 0, unsatisfiable],
    // ignored: served whole
    ['bytes=20-10', 1000, whole],
    ['bytes=0-1,5-6', 1000, whole],
    ['items=0-10', 1000, whole],
    ['bytes=a-b', 1000, whole],
    ['bytes=-', 1000, whole],
    ['bytes=', 1000, whole],
    ['', 1000, whole],
  ])('%j of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
