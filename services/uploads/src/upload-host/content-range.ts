/**
 * What one PUT to an upload URL carries, from its Content-Range (RFC 9110 §14.4, as resumable
 * uploads to object stores use it and UpChunk sends it):
 *   - `bytes 0-262143/1048576`: the bytes from `start` to `end` of a file of `total` bytes
 *   - `bytes 0-262143/*`: the same, total not known yet
 *   - `bytes * /1048576` (no space): a status query, no body
 *   - no header: the whole file in one request
 */
export type PutRange = { kind: 'whole' } | { kind: 'chunk'; start: number; end: number; total?: number } | { kind: 'query'; total?: number };

export class ContentRangeError extends Error {}

const CHUNK = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;
const QUERY = /^bytes \*\/(\d+|\*)$/;

export function parseContentRange(header: string | undefined): PutRange {
  if (header === undefined || header.trim() === '') return { kind: 'whole' };
  const value = header.trim();
  const total = (t: string) => (t === '*' ? undefined : safe(t));
  const query = QUERY.exec(value);
  if (query) return { kind: 'query', total: total(query[1]) };
  const chunk = CHUNK.exec(value);
  if (!chunk) throw new ContentRangeError(`Content-Range must be "bytes <start>-<end>/<total>" or "bytes */<total>", not ${JSON.stringify(value)}`);
  const [start, end, size] = [safe(chunk[1]), safe(chunk[2]), total(chunk[3])];
  if (end < start) throw new ContentRangeError(`Content-Range ends (${end}) before it starts (${start})`);
  if (size !== undefined && end >= size) throw new ContentRangeError(`Content-Range ends at byte ${end}, past the file's ${size} bytes`);
  return { kind: 'chunk', start, end, total: size };
}

function safe(digits: string): number {
  const n = Number(digits);
  if (!Number.isSafeInteger(n)) throw new ContentRangeError(`Content-Range value ${digits} is too large`);
  return n;
}

/** The `Range` header of a 308 (resume incomplete): the bytes held, none when empty. */
export function rangeHeader(received: number): string | undefined {
  return received > 0 ? `bytes=0-${received - 1}` : undefined;
}
