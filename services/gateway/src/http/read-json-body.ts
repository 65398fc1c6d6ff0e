import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors/api-error';
import { containsNul, nulRefused } from './refuse-nul.middleware';

/** Methods whose request body the API reads; others ignore any body. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(mediaType));
}

function declaresBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * Reads a JSON request body: larger than `maxBytes` → 413, not JSON by content type → 415,
 * malformed or holding a NUL character → 400 naming the problem. No body at all is `{}` (the SDK sends none for actions).
 */
export async function readJsonBody(req: Readable & { headers: IncomingHttpHeaders }, maxBytes: number): Promise<unknown> {
  const { headers } = req;
  if (!declaresBody(headers)) return {};
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!isJsonMediaType(headers['content-type'])) {
    throw new ApiError(
      'unsupported_media_type',
      `Content-Type must be application/json, got ${headers['content-type'] ? JSON.stringify(headers['content-type']) : 'none'}`,
    );
  }
  const encoding = headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new ApiError('unsupported_media_type', `Content-Encoding ${JSON.stringify(encoding)} is not supported`);
  }
  const text = await readText(req, maxBytes);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (err) {
    throw ApiError.invalid(`body: malformed JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (containsNul(body)) throw nulRefused('body');
  return body;
}

function tooLarge(maxBytes: number): ApiError {
  // The rest of the body is not read: closing the connection keeps the client from sending it on.
  return new ApiError('payload_too_large', `The request body must be at most ${maxBytes} bytes`, { connection: 'close' });
}

function readText(stream: Readable, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > maxBytes) {
        cleanup();
        stream.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(ApiError.invalid(`body: could not be read: ${err.message}`));
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
