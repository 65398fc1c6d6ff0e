/** A request body that did not carry the bytes its Content-Range or Content-Length promised. */
export class BodyLengthError extends Error {}

/**
 * The body's bytes after the first `skip` (bytes the upload already holds, sent again), checking
 * that it carries exactly `expected` bytes (undefined: any number up to `max`).
 */
export async function* bodySlice(body: AsyncIterable<Buffer | string>, skip: number, expected: number | undefined, max: number): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const piece of body) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    const from = Math.max(0, Math.min(bytes.length, skip - seen));
    seen += bytes.length;
    if (expected !== undefined && seen > expected) throw new BodyLengthError(`The body carries more than the ${expected} bytes its range or length says`);
    if (seen > max) throw new BodyLengthError(`The file is larger than this platform takes (${max} bytes)`);
    if (from < bytes.length) yield bytes.subarray(from);
  }
  if (expected !== undefined && seen < expected) throw new BodyLengthError(`The body ended after ${seen} of the ${expected} bytes its range or length says`);
}
