import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { Browser } from 'playwright-core';

export interface UpChunkResult {
  outcome: 'success' | 'error';
  error?: string;
  chunkSuccesses: number;
  /** Statuses the upload URL answered, in order (from UpChunk's chunkSuccess/attemptFailure events). */
  progress: number[];
}

/**
 * A page on an origin of its own serving UpChunk (the official browser uploader, from node_modules)
 * and the file to upload, so the upload URL's CORS is what lets the browser send and read.
 */
export async function serveUpChunkPage(file: string): Promise<{ origin: string; close(): Promise<void> }> {
  const files: Record<string, [string, string]> = {
    '/': ['<!doctype html><title>upload</title><script src="/upchunk.js"></script>', 'text/html; charset=utf-8'],
    '/upchunk.js': [fs.readFileSync(path.join(path.dirname(require.resolve('@mux/upchunk')), 'upchunk.js'), 'utf8'), 'text/javascript'],
  };
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === `/${path.basename(file)}`) {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      fs.createReadStream(file).pipe(res);
      return;
    }
    const entry = files[pathname];
    if (!entry) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': entry[1] }).end(entry[0]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Opens the page and uploads the file to `endpoint` with UpChunk in chunks of `chunkKb` KiB. */
export async function upChunkInBrowser(browser: Browser, origin: string, fileName: string, endpoint: string, chunkKb: number): Promise<UpChunkResult> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    return await page.evaluate(
      async ({ fileName, endpoint, chunkKb }) => {
        const blob = await (await fetch(`/${fileName}`)).blob();
        const file = new File([blob], fileName, { type: 'video/mp4' });
        const UpChunk = (globalThis as unknown as { UpChunk: { createUpload(o: object): { on(name: string, fn: (e: CustomEvent) => void): void } } }).UpChunk;
        return new Promise<UpChunkResult>((resolve) => {
          const result: UpChunkResult = { outcome: 'error', chunkSuccesses: 0, progress: [] };
          const upload = UpChunk.createUpload({ endpoint, file, chunkSize: chunkKb, attempts: 2, delayBeforeAttempt: 0.2 });
          upload.on('chunkSuccess', (e) => {
            result.chunkSuccesses += 1;
            result.progress.push((e as CustomEvent<{ response: { statusCode: number } }>).detail.response.statusCode);
          });
          upload.on('success', () => resolve({ ...result, outcome: 'success' }));
          upload.on('error', (e) => resolve({ ...result, outcome: 'error', error: JSON.stringify((e as CustomEvent<{ message: string }>).detail?.message) }));
        });
      },
      { fileName, endpoint, chunkKb },
    );
  } finally {
    await page.close();
  }
}
