import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { galleryGridModuleSource } from './gallery-grid';

/**
 * The browser files stay in `src/realtime/public` (plain JavaScript, no build step). From the
 * compiled `dist/realtime` and from `src/realtime` alike, `../../src/realtime/public` is that folder,
 * and the service image keeps `src` (services/Dockerfile copies whole service folders).
 */
export const DEFAULT_PUBLIC_DIR = resolve(__dirname, '..', '..', 'src', 'realtime', 'public');

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const HTML = 'text/html; charset=utf-8';

const ROUTES: Record<string, { file: string; type: string } | { source: () => string; type: string }> = {
  '/spaces/client.js': { file: 'client.mjs', type: JAVASCRIPT },
  '/spaces/join': { file: 'join.html', type: HTML },
  '/spaces/join.js': { file: 'join.mjs', type: JAVASCRIPT },
  '/spaces/compositor': { file: 'compositor.html', type: HTML },
  '/spaces/compositor.js': { file: 'compositor.mjs', type: JAVASCRIPT },
  '/spaces/gallery-grid.js': { source: galleryGridModuleSource, type: JAVASCRIPT },
};

/** Answers a GET or HEAD of one of the browser files; false when the path is none of them. */
export async function serveBrowserFile(request: IncomingMessage, response: ServerResponse, publicDir: string): Promise<boolean> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const route = ROUTES[path];
  if (!route || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const body = 'file' in route ? await readFile(join(publicDir, route.file)) : Buffer.from(route.source());
  response.writeHead(200, {
    'Content-Type': route.type,
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    // The SDK may be imported as a module by pages of other origins.
    'Access-Control-Allow-Origin': '*',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
  return true;
}
