/**
 * What a `Range` header asks of an object of `size` bytes (RFC 9110 §14): one byte range
 * (`bytes=a-b`, `bytes=a-`, `bytes=-n`), nothing (serve it whole), or a range that lies
 * outside the object (416). Headers this server does not serve as a range (another unit,
 * several ranges, bad syntax, `a > b`) are ignored, as the RFC allows: the reply is the
 * whole object with 200.
 */
export type RangeRequest = { kind: 'whole' } | { kind: 'unsatisfiable' } | { kind: 'range'; start: number; end: number };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = SINGLE_RANGE.exec(header.trim().replace(/\s+/g, ''));
  if (!match) return { kind: 'whole' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'whole' };

  if (first === '') {
    // suffix: the last n bytes
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: 'range', start, end };
}
