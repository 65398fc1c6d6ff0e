import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import type { AnalyticsHostRoute } from '../collector/collector-server';
import { ShortCache } from './short-cache';
import type { ViewerCounts, ViewerCountsQuery } from './viewer-counts.query';
import type { ViewerCountsTokens } from './viewer-counts-token';

export const COUNTS_PATH = '/counts';
/** A burst of polls (every player of a page) is one query. */
export const COUNTS_CACHE_MS = 1_500;

type CountsRow = ViewerCounts & { updated_at: string };

const CORS = { 'access-control-allow-origin': '*' };
const PREFLIGHT = { ...CORS, 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-max-age': '86400' };

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...CORS,
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function error(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  send(res, status, { error: { type, messages: [message] } }, headers);
}

/**
 * `GET /counts?token=<jwt>` as stats.mux.com answers it: `{"data":[{"views","viewers","updated_at"}]}`
 * for the id the token names (`mux.jwt.signViewerCounts`), CORS `*`; 401 without a token, 403 for a
 * refused one, 503 when the signing keys cannot be asked.
 */
export function viewerCountsRoute(tokens: ViewerCountsTokens, query: ViewerCountsQuery, now: () => number = Date.now): AnalyticsHostRoute {
  const logger = new Logger('ViewerCounts');
  const cache = new ShortCache<CountsRow>(COUNTS_CACHE_MS);
  return {
    prefix: COUNTS_PATH,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== COUNTS_PATH) return false;
      if (req.method === 'OPTIONS') {
        res.writeHead(204, PREFLIGHT).end();
        return true;
      }
      if (req.method !== 'GET') {
        error(res, 405, 'method_not_allowed', 'Only GET is allowed', { allow: 'GET, OPTIONS' });
        return true;
      }
      try {
        const check = await tokens.check(url.searchParams.get('token'));
        if (!check.ok) {
          error(res, check.status, check.status === 401 ? 'unauthorized' : 'forbidden', check.reason);
          return true;
        }
        const { column, id } = check.target;
        const at = now();
        const row = await cache.get(`${column}:${id}`, at, async () => ({ ...(await query.count(check.target, at)), updated_at: new Date(at).toISOString() }));
        send(res, 200, { data: [row] });
      } catch (err) {
        logger.warn(`viewer counts unavailable: ${err instanceof Error ? err.message : String(err)}`);
        error(res, 503, 'unavailable', 'Viewer counts are unavailable, try again shortly', { 'retry-after': '1' });
      }
      return true;
    },
  };
}
