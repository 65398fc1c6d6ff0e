import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open. Longer than the idle timeouts of clients
 * (undici/fetch 4 s, Node's agent, browsers, load balancers at 60 s), so the client is the one
 * that closes an idle socket: a server that closes first can do so just as the client sends on
 * it, and that request fails with ECONNRESET (seen under open-loop load with Node's 5 s default).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** Above the keep-alive timeout, as Node requires, so a reused socket is not cut while its headers arrive. */
export const HEADERS_TIMEOUT_MS = KEEP_ALIVE_TIMEOUT_MS + 1_000;

export interface HttpServerTimeouts {
  /** Time to receive a whole request; 0 for none (upload bodies of many GiB). Node's default: 300 s. */
  requestTimeoutMs?: number;
}

/** Sets the timeouts of every HTTP server of the platform deliberately (gateway, playback host, upload host). */
export function applyHttpServerTimeouts(server: Server, options: HttpServerTimeouts = {}): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  if (options.requestTimeoutMs !== undefined) server.requestTimeout = options.requestTimeoutMs;
  // never close a healthy keep-alive connection after N requests
  server.maxRequestsPerSocket = 0;
}
