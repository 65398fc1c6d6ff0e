import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { ObjectNotFoundError } from '@platform/storage';
import { DOWNLOAD_PATH_PREFIX, EXPORT_CONTENT_TYPE, ViewExportsService } from './view-exports.service';

/** Answers one request; resolves true when it was an export download (answered), false to let the server go on. */
export type ExportDownloadHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const PATH = /^\/exports\/views\/([^/]+)\/([^/]+)$/;

/** A path segment decoded; malformed escapes stay as they are (and match no export). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function reply(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra });
  res.end(`${message}\n`);
}

/**
 * `GET`/`HEAD /exports/views/<date>/<file>?expires=&signature=`: the export file as a gzip download
 * (`application/gzip`, as Mux's S3 objects), 403 when the URL is expired or not signed by us, 404 when
 * the signed file no longer exists. Mount on the analytics HTTP server (the collector port) before its
 * other routes: `if (await handler(req, res)) return;` in a plain `http` server, or in Express
 * `app.use((req, res, next) => handler(req, res).then((done) => done || next(), next))`.
 */
export function exportDownloads(service: ViewExportsService, now: () => number = Date.now): ExportDownloadHandler {
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(DOWNLOAD_PATH_PREFIX)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      reply(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      return true;
    }
    const match = PATH.exec(url.pathname);
    if (!match) {
      reply(res, 404, 'not found');
      return true;
    }
    const [date, file] = [decoded(match[1]), decoded(match[2])];
    const check = service.checkDownload(date, file, url.searchParams.get('expires') ?? undefined, url.searchParams.get('signature') ?? undefined, now());
    if (check !== 'valid') {
      reply(res, 403, check === 'expired' ? 'this export URL has expired' : 'this export URL is not valid');
      return true;
    }
    const download = await service.findDownload(date, file);
    if (!download) {
      reply(res, 404, 'not found');
      return true;
    }
    const headers = {
      'Content-Type': EXPORT_CONTENT_TYPE,
      'Content-Length': String(download.size),
      'Content-Disposition': `attachment; filename="${download.fileName}"`,
      'Last-Modified': download.lastModified.toUTCString(),
      'Cache-Control': 'private, no-cache',
    };
    if (req.method === 'HEAD') {
      res.writeHead(200, headers).end();
      return true;
    }
    let body: NodeJS.ReadableStream;
    try {
      body = await download.open();
    } catch (err) {
      if (!(err instanceof ObjectNotFoundError)) throw err;
      reply(res, 404, 'not found');
      return true;
    }
    res.writeHead(200, headers);
    // Headers are sent: a client that goes away or a failing read can only end the response.
    await pipeline(body, res).catch(() => res.destroy());
    return true;
  };
}
