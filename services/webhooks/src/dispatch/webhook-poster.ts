/** What one POST came to. `statusCode` 0: no response (connection error, timeout). */
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
 * The HTTP side of the dispatcher (Node's fetch): one POST bounded by `timeoutMs` from
 * connect to the end of the kept body. Redirects are not followed. Never throws.
 */
export class WebhookPoster {
  constructor(private readonly timeoutMs: number) {}

  async post(url: string, body: string, headers: Record<string, string>): Promise<PostResult> {
    const started = performance.now();
    const signal = AbortSignal.timeout(this.timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal });
    } catch (err) {
      return { statusCode: 0, headers: null, body: null, error: this.describe(err), durationMs: elapsed() };
    }
    const responseHeaders = Object.fromEntries(response.headers);
    let responseBody: string | null;
    let error: string | null = null;
    try {
      responseBody = await readStart(response, RESPONSE_BODY_LIMIT);
    } catch (err) {
      // the status already came: it decides the outcome; the body is only informative
      responseBody = null;
      error = `reading the response body: ${this.describe(err)}`;
    }
    return { statusCode: response.status, headers: responseHeaders, body: responseBody, error, durationMs: elapsed() };
  }

  /** Duck-typed: fetch's errors may come from another realm than this module's Error. */
  private describe(err: unknown): string {
    const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: string; message?: string; cause?: { message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return `timed out after ${this.timeoutMs} ms`;
    return e.cause?.message ?? e.message ?? String(err);
  }
}

/** The first `limit` characters of the body; the rest is not read. */
async function readStart(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length >= limit) return text.slice(0, limit);
    }
    return text + decoder.decode();
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
