import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: string } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * A request's body as text, up to `maxBytes`: a larger declared Content-Length is refused before reading;
 * a body that outgrows the limit while streaming stops being kept (the rest is read and dropped, so the
 * client, still sending, reads the 413 instead of a reset connection).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        if (!tooLarge) resolve({ ok: false, reason: 'too_large' });
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? { ok: false, reason: 'too_large' } : { ok: true, body: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
    req.on('close', () => resolve({ ok: false, reason: 'aborted' }));
  });
}
