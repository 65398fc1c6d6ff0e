import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloadError } from './download';
import { downloadInThread } from './download-thread';

/** The compiled entry (`npm run build` comes first); ts-jest cannot start a thread on a .ts file. */
const ENTRY = join(__dirname, '../../dist/ingest/download-worker.js');

describe('downloadInThread', () => {
  let server: http.Server;
  let base: string;
  let dir: string;
  const file = () => join(dir, 'input');
  const options = { maxBytes: 1_000_000, timeoutSeconds: 5, idleSeconds: 5, outboundAllow: 'loopback' as const };

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
    server = http.createServer((req, res) => {
      if (req.url === '/clip') return void res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(300_000, 3));
      if (req.url === '/slow') {
        res.writeHead(200, { 'content-length': '1000000' }).write(Buffer.alloc(1000)); // and never the rest
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'download-thread-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('downloads on a thread and answers what downloadInput answers', async () => {
    expect(await downloadInThread(`${base}/clip`, file(), options, ENTRY)).toEqual({ bytes: 300_000, contentType: 'video/mp4' });
    expect(readFileSync(file())).toEqual(Buffer.alloc(300_000, 3));
  });

  it('rejects with the same DownloadError, message included', async () => {
    const error = await downloadInThread(`${base}/missing`, file(), options, ENTRY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).message).toBe('Unable to download input file: HTTP 404');
    const tooBig = await downloadInThread(`${base}/clip`, file(), { ...options, maxBytes: 1000 }, ENTRY).catch((e: unknown) => e);
    expect((tooBig as DownloadError).message).toBe('Unable to download input file: larger than 1000 bytes');
  });

  it('applies the outbound policy and the idle timeout on the thread too', async () => {
    const refused = await downloadInThread(`${base}/clip`, file(), { ...options, outboundAllow: 'public' }, ENTRY).catch((e: unknown) => e);
    expect((refused as DownloadError).message).toBe(
      'Unable to download input file: 127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)',
    );
    const stalled = await downloadInThread(`${base}/slow`, file(), { ...options, idleSeconds: 0.3 }, ENTRY).catch((e: unknown) => e);
    expect((stalled as DownloadError).message).toBe('Unable to download input file: no data received for 0.3 s');
  });

  it("rejects with the job signal's reason when aborted, without waiting for the transfer", async () => {
    const job = new AbortController();
    const download = downloadInThread(`${base}/slow`, file(), { ...options, signal: job.signal }, ENTRY);
    setTimeout(() => job.abort(new Error('lease lost')), 100);
    const started = Date.now();
    await expect(download).rejects.toThrow('lease lost');
    expect(Date.now() - started).toBeLessThan(2000);
  }, 10_000);

  it('runs in-process when there is no compiled entry', async () => {
    expect(await downloadInThread(`${base}/clip`, file(), options, join(dir, 'absent.js'))).toEqual({ bytes: 300_000, contentType: 'video/mp4' });
  });
});
