import { createWriteStream } from 'node:fs';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface DownloadOptions {
  maxBytes: number;
  /** For the whole download, redirects included. */
  timeoutSeconds: number;
  /** The job's signal: aborting it rejects with its reason, not with a DownloadError. */
  signal?: AbortSignal;
  maxRedirects?: number;
}

export interface Downloaded {
  bytes: number;
  contentType?: string;
}

/** Why an input could not be fetched; the message is what the asset's `errors.messages` shows. */
export class DownloadError extends Error {
  constructor(readonly reason: string) {
    super(`Unable to download input file: ${reason}`);
    this.name = 'DownloadError';
  }
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  ERR_STREAM_PREMATURE_CLOSE: 'the connection closed before the end of the file',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
};

/**
 * Streams an http(s) URL into `file`, following up to 5 redirects, bounded in size (Content-Length and
 * the bytes actually received) and in time. Every failure is a DownloadError with a short reason.
 */
export async function downloadInput(url: string, file: string, options: DownloadOptions): Promise<Downloaded> {
  const timeout = AbortSignal.timeout(options.timeoutSeconds * 1000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await follow(url, signal, options.maxRedirects ?? 5);
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy();
      throw new DownloadError(`larger than ${options.maxBytes} bytes`);
    }
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > options.maxBytes ? new DownloadError(`larger than ${options.maxBytes} bytes`) : null, chunk);
      },
    });
    await pipeline(response, counter, createWriteStream(file), { signal });
    if (Number.isFinite(declared) && bytes < declared) throw new DownloadError('the connection closed before the end of the file');
    const contentType = response.headers['content-type'];
    return { bytes, ...(contentType ? { contentType } : {}) };
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('download aborted');
    if (timeout.aborted) throw new DownloadError('timed out');
    throw toDownloadError(err);
  }
}

async function follow(url: string, signal: AbortSignal, redirectsLeft: number): Promise<IncomingMessage> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new DownloadError('not a valid URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new DownloadError(`only http and https URLs are supported, not ${target.protocol}`);
  }
  const response = await get(target, signal);
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400 && response.headers.location) {
    response.resume();
    if (redirectsLeft === 0) throw new DownloadError('too many redirects');
    return follow(new URL(response.headers.location, target).toString(), signal, redirectsLeft - 1);
  }
  if (status < 200 || status >= 300) {
    response.resume();
    throw new DownloadError(`HTTP ${status}`);
  }
  return response;
}

function get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { signal, headers: { 'user-agent': 'video-platform-transcoder', accept: '*/*' } }, resolve);
    request.once('error', reject);
  });
}

function toDownloadError(err: unknown): DownloadError {
  if (err instanceof DownloadError) return err;
  const code = (err as { code?: string }).code ?? '';
  const message = typeof (err as Error | undefined)?.message === 'string' ? (err as Error).message : String(err);
  return new DownloadError(NETWORK_ERRORS[code] ?? message);
}
