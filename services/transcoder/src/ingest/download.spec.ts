import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@platform/testing';
import { DownloadError, downloadInput } from './download';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

describe('downloadInput', () => {
  let server: http.Server;
  let base: string;
  let dir: string;
  let handler: Handler;
  const file = () => join(dir, 'input.mp4');
  const options = { maxBytes: 1000, timeoutSeconds: 5 };

  beforeAll(async () => {
    server = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'download-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const failure = async (url: string, opts: Parameters<typeof downloadInput>[2] = options): Promise<Error> => {
    const error = await downloadInput(url, file(), opts).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  };

  it('streams the body into the file and reports its size and type', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(600, 7));
    expect(await downloadInput(`${base}/a.mp4`, file(), options)).toEqual({ bytes: 600, contentType: 'video/mp4' });
    expect(readFileSync(file())).toEqual(Buffer.alloc(600, 7));
  });

  it('follows up to 5 redirects, relative ones included', async () => {
    const seen: string[] = [];
    handler = (req, res) => {
      seen.push(req.url!);
      const n = Number(req.url!.slice(1));
      if (n < 5) res.writeHead(302, { location: `/${n + 1}` }).end();
      else res.writeHead(200).end('media');
    };
    expect((await downloadInput(`${base}/0`, file(), options)).bytes).toBe(5);
    expect(seen).toEqual(['/0', '/1', '/2', '/3', '/4', '/5']);
  });

  it('stops at the sixth redirect', async () => {
    handler = (req, res) => res.writeHead(301, { location: `/${Number(req.url!.slice(1)) + 1}` }).end();
    const error = await failure(`${base}/0`);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error.message).toBe('Unable to download input file: too many redirects');
  });

  it('names the HTTP status of a failed request', async () => {
    handler = (_req, res) => res.writeHead(404).end('nope');
    expect((await failure(`${base}/missing.mp4`)).message).toBe('Unable to download input file: HTTP 404');
  });

  it('says connection refused when nothing listens', async () => {
    const port = await freePort();
    expect((await failure(`http://127.0.0.1:${port}/a.mp4`)).message).toBe('Unable to download input file: connection refused');
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
    expect((await failure(`${base}/big`)).message).toBe('Unable to download input file: larger than 1000 bytes');
  });

  it('stops a body without Content-Length once it passes the limit', async () => {
    handler = (_req, res) => {
      res.writeHead(200); // chunked
      res.write(Buffer.alloc(800));
      res.end(Buffer.alloc(800));
    };
    expect((await failure(`${base}/chunked`)).message).toBe('Unable to download input file: larger than 1000 bytes');
  });

  it('times out a server that never answers', async () => {
    handler = () => undefined;
    const started = Date.now();
    expect((await failure(`${base}/slow`, { ...options, timeoutSeconds: 0.3 })).message).toBe('Unable to download input file: timed out');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('notices a body cut short of its Content-Length', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '900' });
      res.write(Buffer.alloc(100), () => res.destroy());
    };
    expect((await failure(`${base}/cut`)).message).toMatch(
      /^Unable to download input file: (the connection closed before the end of the file|connection reset)$/,
    );
  });

  it('accepts only http and https URLs', async () => {
    expect((await failure('ftp://example.com/a.mp4')).message).toBe('Unable to download input file: only http and https URLs are supported, not ftp:');
    expect((await failure('svc://assets/abc')).message).toBe('Unable to download input file: only http and https URLs are supported, not svc:');
    expect((await failure('not a url')).message).toBe('Unable to download input file: not a valid URL');
    expect(existsSync(file())).toBe(false);
  });

  it("rejects with the job's own reason when the job is aborted, not as a download failure", async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      res.write('partial');
    };
    const controller = new AbortController();
    const reason = new Error('lease lost');
    const pending = downloadInput(`${base}/stream`, file(), { ...options, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });
});
