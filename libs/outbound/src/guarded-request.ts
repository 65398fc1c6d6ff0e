import http, { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { OutboundGuard, OutboundRefusedError } from './outbound-guard';

export interface GuardedRequestOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Redirects followed (GET and HEAD only), each target checked like the first URL; default 5. */
  maxRedirects?: number;
  /** Called with each response as soon as its headers arrive (an idle timer, for example). */
  onResponse?: (response: IncomingMessage) => void;
}

export interface GuardedResponse {
  response: IncomingMessage;
  /** The URL that answered, after redirects. */
  url: URL;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * An http(s) request to a URL a user gave: scheme and address checked by the guard, the socket
 * connected to the checked address, redirects re-checked hop by hop. Resolves with the first
 * response that is not a followed redirect; the caller reads (or drains) it.
 */
export async function guardedRequest(guard: OutboundGuard, raw: string, options: GuardedRequestOptions = {}): Promise<GuardedResponse> {
  const method = (options.method ?? 'GET').toUpperCase();
  const follows = method === 'GET' || method === 'HEAD';
  let url = guard.checkUrl(raw, ['http', 'https']);
  for (let redirectsLeft = options.maxRedirects ?? 5; ; redirectsLeft--) {
    const response = await send(guard, url, method, options);
    const location = response.headers.location;
    if (!follows || !REDIRECTS.has(response.statusCode ?? 0) || !location) return { response, url };
    response.resume();
    if (redirectsLeft <= 0) throw new OutboundRefusedError('too many redirects');
    url = guard.checkUrl(new URL(location, url).toString(), ['http', 'https']);
  }
}

function send(guard: OutboundGuard, url: URL, method: string, options: GuardedRequestOptions): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method, headers: options.headers, signal: options.signal, lookup: guard.lookup, agent: false }, (response) => {
      options.onResponse?.(response);
      resolve(response);
    });
    request.once('error', reject);
    request.end(options.body);
  });
}
