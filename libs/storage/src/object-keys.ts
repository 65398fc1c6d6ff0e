import { ByteRange } from './object-store.port';

// Control characters, and backslashes (a path separator on some filesystems).
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/**
 * Rejects keys that are not plain relative paths (so no adapter can be steered outside its
 * root): empty, leading or trailing `/`, empty, `.` or `..` segments, control characters.
 * A first segment starting with `.` is reserved for the adapters' own files.
 */
export function assertObjectKey(key: string): void {
  const segments = key.split('/');
  const bad =
    key.length === 0 || key.length > 1024 || UNSAFE_CHARACTERS.test(key) || key.startsWith('.') || segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad) throw new Error(`invalid object key: ${JSON.stringify(key)}`);
}

/** Accepts `''` (everything) or a key prefix whose folder part is a valid key. */
export function assertObjectPrefix(prefix: string): void {
  if (prefix === '') return;
  const slash = prefix.lastIndexOf('/');
  if (prefix.startsWith('/') || prefix.startsWith('.') || UNSAFE_CHARACTERS.test(prefix))
    throw new Error(`invalid object key prefix: ${JSON.stringify(prefix)}`);
  if (slash > 0) assertObjectKey(prefix.slice(0, slash));
}

/** Rejects ranges that no object can satisfy (negative, fractional, end before start). */
export function assertByteRange(key: string, range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
    throw new RangeError(`invalid byte range ${start}-${end ?? ''} for ${key}`);
  }
}

/** Whether a range means the whole object (S3 sends no Range header for it, even for an empty object). */
export function isWholeObject(range: ByteRange | undefined): boolean {
  return !range || (range.start === 0 && range.end === undefined);
}

/** S3's listing order: by the keys' UTF-8 bytes. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
