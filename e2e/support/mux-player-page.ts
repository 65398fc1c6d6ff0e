import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { readUntil } from '@platform/testing';
import { Page, Request } from 'playwright-core';

/**
 * `@mux/mux-player`'s self-contained browser bundle (the package's `unpkg`/`jsdelivr` file: one script, hls.js,
 * media-chrome and Mux Data inside, that defines <mux-player>), from node_modules.
 */
const BUNDLE = path.join(path.dirname(require.resolve('@mux/mux-player')), 'mux-player.js');
const PAGE = path.join(__dirname, 'player/mux-player.html');

/** Attributes of the <mux-player> element: `true` for a boolean attribute. */
export type MuxPlayerAttributes = Record<string, string | true>;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A customer's page embedding <mux-player>, on an origin of its own (so the platform's CORS headers are what lets
 * the player read playlists, segments and the storyboard). `url(attributes)` is the page with a <mux-player>
 * of those attributes (carried in the query string, rendered into the markup by the server).
 */
export async function serveMuxPlayerPage(): Promise<{ origin: string; url(attributes: MuxPlayerAttributes): string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/mux-player.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      fs.createReadStream(BUNDLE).pipe(res);
      return;
    }
    if (url.pathname !== '/') return void res.writeHead(404).end();
    const attributes = [...url.searchParams].map(([name, value]) => {
      if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not an attribute name: ${name}`);
      return value === '' ? name : `${name}="${escapeAttribute(value)}"`;
    });
    const element = `<mux-player ${attributes.join(' ')} style="display: block; width: 960px; aspect-ratio: 16 / 9"></mux-player>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(PAGE, 'utf8').replace('<!-- mux-player -->', element));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (attributes) => {
      const query = new URLSearchParams(Object.entries(attributes).map(([name, value]): [string, string] => [name, value === true ? '' : value]));
      return `${origin}/?${query.toString()}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface RecordedRequest {
  method: string;
  /** As the browser asked for it (a URL's #fragment is never sent, so never here). */
  url: string;
  resourceType: string;
  status?: number;
  contentType?: string;
  /** The network error of a request that got no response (`net::ERR_CONNECTION_REFUSED` …). */
  failure?: string;
}

/** Every request the page makes, with its response or failure; and the console's errors and uncaught exceptions. */
export function recordTraffic(page: Page): { requests: RecordedRequest[]; consoleErrors: string[] } {
  const requests: RecordedRequest[] = [];
  const consoleErrors: string[] = [];
  const byRequest = new Map<Request, RecordedRequest>();
  page.on('request', (request) => {
    const entry: RecordedRequest = { method: request.method(), url: request.url(), resourceType: request.resourceType() };
    byRequest.set(request, entry);
    requests.push(entry);
  });
  page.on('response', (response) => {
    const entry = byRequest.get(response.request());
    if (!entry) return;
    entry.status = response.status();
    entry.contentType = response.headers()['content-type'];
  });
  page.on('requestfailed', (request) => {
    const entry = byRequest.get(request);
    if (entry) entry.failure = request.failure()?.errorText ?? 'failed';
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return { requests, consoleErrors };
}

/** What the page's `window.playerState()` reports (e2e/support/player/mux-player.html). */
export interface MuxPlayerState {
  currentTime: number;
  duration: number;
  paused: boolean;
  ended: boolean;
  playbackRate: number;
  videoHeight: number;
  error: string | null;
  /** `media.videoRenditions` (hls.js's levels), lowest first. */
  renditions: Array<{ width: number; height: number; bitrate: number }>;
  /** The items of the quality menu (media-rendition-menu), as shown. */
  renditionMenu: Array<{ value: string; label: string }>;
  /** The items of the captions menu (media-captions-menu): `off`, then `<kind>:<lang>:<label>` per track. */
  captionsMenu: Array<{ value: string; label: string }>;
  textTracks: Array<{
    kind: string;
    label: string;
    language: string;
    mode: string;
    /** The `src` of its <track> element (the storyboard's); null for tracks hls.js made. */
    src: string | null;
    cues: Array<{ start: number; end: number; text: string }>;
  }>;
  /** The poster <img> of <media-poster-image>. */
  poster: PageImage | null;
  /** The <img> of <media-preview-thumbnail> (the storyboard tile shown over the time range). */
  preview: PageImage | null;
  log: { events: Array<{ type: string; time: number }>; cues: Array<{ label: string; text: string; time: number }> };
}

export interface PageImage {
  src: string;
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
}

/** What the page's `window.decodeImage(url)` reports: the size of the image at `url` as the browser decodes it, or why it cannot. */
export type DecodedImage = { width: number; height: number } | { error: string };

export function decodeImage(page: Page, url: string): Promise<DecodedImage> {
  return page.evaluate((u) => (globalThis as unknown as { decodeImage(url: string): Promise<DecodedImage> }).decodeImage(u), url);
}

export function playerState(page: Page): Promise<MuxPlayerState> {
  return page.evaluate<MuxPlayerState>('window.playerState()');
}

/** Reads the player's state until `check` holds (or the time runs out) and returns the last one. */
export function playerStateWhen(page: Page, check: (state: MuxPlayerState) => boolean, timeoutMs = 20_000): Promise<MuxPlayerState> {
  return readUntil(() => playerState(page), check, { timeoutMs, intervalMs: 100 });
}
