import { IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import { guardedRequest, OutboundGuard, OutboundRefusedError } from '@platform/outbound';

/** What one POST came to. `statusCode` 0: no response (connection error, timeout, refused address). */
export interface PostResult {
  statusCode: number;
  headers: Record<string, string> | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/** The part of a receiver's reply that is kept and listed back in later attempts. */
export const RESPONSE_BODY_LIMIT = 4096;

export const USER_AGENT = 'video-platform-webhooks/1.0';

/**
 * The HTTP side of the dispatcher: one POST through the outbound guard (OUTBOUND_ALLOW; the socket
 * connects to the address that was checked), bounded by `timeoutMs` from connect to the end of the
 * kept body. Redirects are not followed. A refused address is an attempt with status 0 and the reason,
 * logged once per origin (never the path or query, which may carry a token). Never throws.
 */
export class WebhookPoster {
  private readonly logger = new Logger('WebhookPoster');
  private readonly refusedLogged = new Set<string>();

  constructor(
    private readonly timeoutMs: number,
    private readonly guard: OutboundGuard,
  ) {}

  async post(url: string, body: string, headers: Record<string, string>): Promise<PostResult> {
    const started = performance.now();
    const signal = AbortSignal.timeout(this.timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    let response: IncomingMessage;
    try {
      ({ response } = await guardedRequest(this.guard, url, { method: 'POST', body, headers, signal, maxRedirects: 0 }));
    } catch (err) {
      return { statusCode: 0, headers: null, body: null, error: this.describe(url, err, signal), durationMs: elapsed() };
    }
    const responseHeaders = flatHeaders(response);
    let responseBody: string | null;
    let error: string | null = null;
    try {
      responseBody = await readStart(response, RESPONSE_BODY_LIMIT, signal);
    } catch (err) {
      // the status already came: it decides the outcome; the body is only informative
      responseBody = null;
      error = `reading the response body: ${this.describe(url, err, signal)}`;
    }
    return { statusCode: response.statusCode ?? 0, headers: responseHeaders, body: responseBody, error, durationMs: elapsed() };
  }

  private describe(url: string, err: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `timed out after ${this.timeoutMs} ms`;
    if (err instanceof OutboundRefusedError) {
      const origin = originOf(url);
      if (!this.refusedLogged.has(origin)) {
        this.refusedLogged.add(origin);
        this.logger.warn(`webhooks to ${origin} are refused: ${err.reason}`);
      }
      return `refused: ${err.reason}`;
    }
    return err instanceof Error ? err.message : String(err);
  }
}

export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(not a URL)';
  }
}

function flatHeaders(response: IncomingMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

/** The first `limit` characters of the body; the rest is not read. */
async function readStart(response: IncomingMessage, limit: number, signal: AbortSignal): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const abort = () => response.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  signal.addEventListener('abort', abort, { once: true });
  try {
    for await (const chunk of response) {
      text += decoder.decode(chunk as Buffer, { stream: true });
      if (text.length >= limit) return text.slice(0, limit);
    }
    return text + decoder.decode();
  } finally {
    signal.removeEventListener('abort', abort);
    response.destroy();
  }
}
