import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import { OutboundGuard } from '@platform/outbound';
import { freePort } from '@platform/testing';
import { CONNECTION_FAILED, DownloadError, downloadInput } from './download';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

describe('downloadInput', () => {
  let server: http.Server;
  let base: string;
  let dir: string;
  let handler: Handler;
  const file = () => join(dir, 'input.mp4');
  const options = { maxBytes: 1000, timeoutSeconds: 5, idleSeconds: 5, outboundAllow: 'loopback' as const };

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

  const failure = async (url: string, opts: Parameters<typeof downloadInput>[2] = options, guard?: OutboundGuard): Promise<Error> => {
    const error = await downloadInput(url, file(), opts, guard).then(
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

  it('says only that the connection failed when nothing listens, or something that is not HTTP answers (no port mapping)', async () => {
    const port = await freePort();
    expect((await failure(`http://127.0.0.1:${port}/a.mp4`)).message).toBe(`Unable to download input file: ${CONNECTION_FAILED}`);
    const sockets = new Set<net.Socket>();
    const notHttp = net.createServer((socket) => {
      sockets.add(socket);
      socket.end('SSH-2.0-OpenSSH_9.2\r\n');
    });
    await new Promise<void>((r) => notHttp.listen(0, '127.0.0.1', r));
    try {
      const error = await failure(`http://127.0.0.1:${(notHttp.address() as AddressInfo).port}/`);
      expect(error.message).toBe(`Unable to download input file: ${CONNECTION_FAILED}`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => notHttp.close(r));
    }
  });

  it('gives up on a server that sends its headers and then stalls, after the idle time rather than the whole timeout', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '900' });
      res.write(Buffer.alloc(100));
    };
    const started = Date.now();
    const error = await failure(`${base}/stall`, { ...options, timeoutSeconds: 60, idleSeconds: 0.3 });
    expect(error.message).toBe('Unable to download input file: no data received for 0.3 s');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up on a server that accepts the request and never answers, after the idle time', async () => {
    handler = () => undefined;
    const error = await failure(`${base}/silent`, { ...options, timeoutSeconds: 60, idleSeconds: 0.3 });
    expect(error.message).toBe('Unable to download input file: no data received for 0.3 s');
  });

  it('keeps a slow download going while bytes keep coming, however long it takes past the idle time', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '8' });
      let sent = 0;
      const tick = setInterval(() => {
        res.write('x');
        if (++sent === 8) {
          clearInterval(tick);
          res.end();
        }
      }, 100);
    };
    expect((await downloadInput(`${base}/trickle`, file(), { ...options, idleSeconds: 0.5 })).bytes).toBe(8);
  });

  it('refuses cloud metadata and link-local addresses under every policy, without connecting', async () => {
    const message = (await failure('http://169.254.169.254/latest/meta-data/', { ...options, outboundAllow: 'private' })).message;
    expect(message).toBe('Unable to download input file: 169.254.169.254 is a cloud metadata address, which this platform does not connect to');
  });

  it('refuses loopback when OUTBOUND_ALLOW is public, and never reaches the server', async () => {
    let hits = 0;
    handler = (_req, res) => {
      hits++;
      res.writeHead(200).end('media');
    };
    const error = await failure(`${base}/a.mp4`, { ...options, outboundAllow: 'public' });
    expect(error.message).toBe('Unable to download input file: 127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)');
    expect(hits).toBe(0);
  });

  it('refuses a host name that resolves to a refused address (checked after DNS)', async () => {
    const guard = new OutboundGuard('public', () => Promise.resolve([{ address: '10.1.2.3', family: 4 }]));
    const error = await failure('http://media.internal.example/a.mp4', { ...options, outboundAllow: 'public' }, guard);
    expect(error.message).toBe(
      'Unable to download input file: media.internal.example resolves to 10.1.2.3 is a private address, which this platform does not connect to (OUTBOUND_ALLOW)',
    );
  });

  it('refuses a redirect from an allowed URL to a refused one', async () => {
    handler = (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end();
    const error = await failure(`${base}/to-metadata`);
    expect(error.message).toBe('Unable to download input file: 169.254.169.254 is a cloud metadata address, which this platform does not connect to');
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
    expect((await failure(`${base}/cut`)).message).toBe('Unable to download input file: the connection closed before the end of the file');
  });

  it('accepts only http and https URLs', async () => {
    expect((await failure('ftp://example.com/a.mp4')).message).toBe('Unable to download input file: only http, https URLs are allowed, not ftp');
    expect((await failure('svc://assets/abc')).message).toBe('Unable to download input file: only http, https URLs are allowed, not svc');
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
