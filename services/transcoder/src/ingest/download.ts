import { createWriteStream } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { guardedRequest, OutboundAllow, OutboundGuard, OutboundRefusedError } from '@platform/outbound';

export interface DownloadOptions {
  maxBytes: number;
  /** For the whole download, redirects included. */
  timeoutSeconds: number;
  /** Longest wait for the response's headers or for the next bytes of its body (a stalled server). */
  idleSeconds: number;
  /** OUTBOUND_ALLOW: which addresses the URL (and every redirect) may lead to. */
  outboundAllow: OutboundAllow;
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

/**
 * Network failures keep only what a user can act on. Everything else at the socket level (refused,
 * reset, not HTTP, TLS) is one generic reason, so an input URL cannot be used to tell which ports of a
 * host are open or what listens on them.
 */
const NETWORK_ERRORS: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
};
export const CONNECTION_FAILED = 'the connection to the server failed';
export const CUT_SHORT = 'the connection closed before the end of the file';

/**
 * Streams an http(s) URL into `file` through the outbound guard (the address of every hop checked,
 * the socket pinned to it, up to 5 redirects), bounded in size (Content-Length and the bytes actually
 * received), in time, and in idle time (a server that stops sending). Every failure is a DownloadError
 * with a short reason.
 */
export async function downloadInput(
  url: string,
  file: string,
  options: DownloadOptions,
  guard = new OutboundGuard(options.outboundAllow),
): Promise<Downloaded> {
  const timeout = AbortSignal.timeout(options.timeoutSeconds * 1000);
  const idle = new IdleTimer(options.idleSeconds * 1000);
  const signal = AbortSignal.any([timeout, idle.signal, ...(options.signal ? [options.signal] : [])]);
  let responded = false;
  try {
    const { response } = await guardedRequest(guard, url, {
      signal,
      maxRedirects: options.maxRedirects ?? 5,
      headers: { 'user-agent': 'video-platform-transcoder', accept: '*/*' },
      onResponse: () => idle.touch(),
    });
    responded = true;
    checkStatus(response);
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy();
      throw new DownloadError(`larger than ${options.maxBytes} bytes`);
    }
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        idle.touch();
        bytes += chunk.length;
        done(bytes > options.maxBytes ? new DownloadError(`larger than ${options.maxBytes} bytes`) : null, chunk);
      },
    });
    await pipeline(response, counter, createWriteStream(file), { signal });
    if (Number.isFinite(declared) && bytes < declared) throw new DownloadError(CUT_SHORT);
    const contentType = response.headers['content-type'];
    return { bytes, ...(contentType ? { contentType } : {}) };
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('download aborted');
    if (timeout.aborted) throw new DownloadError('timed out');
    if (idle.signal.aborted) throw new DownloadError(`no data received for ${options.idleSeconds} s`);
    throw toDownloadError(err, responded);
  } finally {
    idle.stop();
  }
}

function checkStatus(response: IncomingMessage): void {
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return;
  response.resume();
  throw new DownloadError(`HTTP ${status}`);
}

function toDownloadError(err: unknown, responded: boolean): DownloadError {
  if (err instanceof DownloadError) return err;
  if (err instanceof OutboundRefusedError || (err as Error | undefined)?.name === 'OutboundRefusedError') {
    return new DownloadError((err as OutboundRefusedError).reason ?? (err as Error).message);
  }
  const code = (err as { code?: string } | undefined)?.code ?? '';
  if (NETWORK_ERRORS[code]) return new DownloadError(NETWORK_ERRORS[code]);
  return new DownloadError(responded ? CUT_SHORT : CONNECTION_FAILED);
}

/** Aborts its signal once `ms` pass without a `touch`. */
class IdleTimer {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.timer = setTimeout(() => this.controller.abort(new Error('idle')), ms);
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    this.timer.refresh();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
