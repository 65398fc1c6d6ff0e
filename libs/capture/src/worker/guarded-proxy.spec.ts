import { OutboundGuard } from '@platform/outbound';
import http from 'node:http';
import net from 'node:net';
import { freePort } from '@platform/testing';
import { GuardedProxy, hostPortOf, parseAuthority, REFUSED_HEADER } from './guarded-proxy';

/** A real upstream on loopback and the proxy in front of it, spoken to as Chromium does (absolute-form and CONNECT). */
describe('GuardedProxy', () => {
  let upstream: http.Server;
  let port: number;
  const hits: { url: string; host: string }[] = [];
  let proxy: GuardedProxy | undefined;
  const refusals: string[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      hits.push({ url: req.url ?? '', host: req.headers.host ?? '' });
      res.writeHead(201, { 'x-upstream': 'yes' }).end(`hello ${req.url}`);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    port = (upstream.address() as net.AddressInfo).port;
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    hits.length = 0;
    refusals.length = 0;
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  const start = async (guard: OutboundGuard, trusted: string[] = []) => {
    proxy = await GuardedProxy.start(guard, trusted, (line) => refusals.push(line));
    return new URL(proxy.url);
  };

  /** An absolute-form GET through the proxy, as a browser sends plain http. */
  const viaProxy = (at: URL, target: string) =>
    new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.request({ host: at.hostname, port: at.port, path: target, headers: { host: new URL(target).host } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.once('error', reject);
      req.end();
    });

  /** A CONNECT line and what the proxy answers (the first response, and the socket to go on with). */
  const connect = (at: URL, authority: string) =>
    new Promise<{ status: number; body: string; socket: net.Socket }>((resolve, reject) => {
      const req = http.request({ host: at.hostname, port: at.port, method: 'CONNECT', path: authority });
      req.once('connect', (res, socket, head) => {
        let body = head.toString();
        if (res.statusCode === 200) return resolve({ status: 200, body, socket });
        socket.on('data', (c: Buffer) => (body += c.toString()));
        socket.once('close', () => resolve({ status: res.statusCode ?? 0, body, socket }));
      });
      req.once('error', reject);
      req.end();
    });

  it('forwards an allowed plain-http request with its path and Host, and relays status, headers and body', async () => {
    const at = await start(new OutboundGuard('loopback'));
    const answer = await viaProxy(at, `http://127.0.0.1:${port}/page?x=1`);
    expect(answer).toMatchObject({ status: 201, body: 'hello /page?x=1', headers: expect.objectContaining({ 'x-upstream': 'yes' }) });
    expect(hits).toEqual([{ url: '/page?x=1', host: `127.0.0.1:${port}` }]);
  });

  it('refuses a request to an address OUTBOUND_ALLOW does not allow with 403 and the reason; nothing reaches it', async () => {
    const at = await start(new OutboundGuard('public'));
    const answer = await viaProxy(at, `http://127.0.0.1:${port}/secret`);
    expect(answer.status).toBe(403);
    expect(answer.body).toBe('127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)');
    expect(answer.headers[REFUSED_HEADER]).toBe(answer.body);
    expect(refusals).toEqual([`refused http://127.0.0.1:${port}/secret: ${answer.body}`]);
    expect(hits).toEqual([]);
  });

  it('answers 502 for a name with no address, and drops the connection when the upstream refuses it (as a direct one would fail)', async () => {
    const at = await start(new OutboundGuard('loopback', async () => []));
    const unresolved = await viaProxy(at, 'http://nowhere.invalid/page');
    expect(unresolved).toMatchObject({ status: 502, body: 'host not found: nowhere.invalid' });
    expect(unresolved.headers[REFUSED_HEADER]).toBeUndefined();
    const closed = await freePort();
    const dropped = await viaProxy(at, `http://127.0.0.1:${closed}/page`).catch((err: Error & { code?: string }) => err.code);
    expect(dropped).toBe('ECONNRESET');
    expect(refusals).toEqual([
      'could not resolve http://nowhere.invalid/page: host not found: nowhere.invalid',
      expect.stringMatching(new RegExp(`^could not reach http://127.0.0.1:${closed}/page: connect ECONNREFUSED`)),
    ]);
  });

  it('lets the trusted origins through whatever OUTBOUND_ALLOW says, and only them (not another port of the host)', async () => {
    const at = await start(new OutboundGuard('public'), [`http://127.0.0.1:${port}`]);
    expect((await viaProxy(at, `http://127.0.0.1:${port}/spaces/compositor`)).status).toBe(201);
    expect((await viaProxy(at, `http://127.0.0.1:${port + 1}/other`)).status).toBe(403);
    expect(hits.map((h) => h.url)).toEqual(['/spaces/compositor']);
  });

  it('connects to the address it checked, not to a second DNS answer (a name resolved once, by the guard)', async () => {
    const resolved: string[] = [];
    const guard = new OutboundGuard('loopback', async (name) => {
      resolved.push(name);
      return [{ address: '127.0.0.1', family: 4 }];
    });
    const at = await start(guard);
    // the name exists nowhere but in the guard's resolver: reaching the upstream proves the proxy dialled its answer
    const answer = await viaProxy(at, `http://page.invalid:${port}/named`);
    expect(answer.status).toBe(201);
    expect(resolved).toEqual(['page.invalid']);
    expect(hits).toEqual([{ url: '/named', host: `page.invalid:${port}` }]);
  });

  it('refuses a name that resolves to a private address when only public ones are allowed', async () => {
    const at = await start(new OutboundGuard('public', async () => [{ address: '10.1.2.3', family: 4 }]));
    const answer = await viaProxy(at, 'http://intranet.invalid/admin');
    expect(answer).toMatchObject({ status: 403, body: expect.stringContaining('intranet.invalid resolves to 10.1.2.3') });
  });

  it('tunnels an allowed CONNECT (https, WebSockets) and carries bytes both ways', async () => {
    const at = await start(new OutboundGuard('loopback'));
    const tunnel = await connect(at, `127.0.0.1:${port}`);
    expect(tunnel.status).toBe(200);
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      tunnel.socket.on('data', (c: Buffer) => (text += c.toString()));
      tunnel.socket.once('end', () => resolve(text));
      tunnel.socket.write(`GET /through HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 201/);
    expect(reply).toContain('hello /through');
    expect(hits.map((h) => h.url)).toEqual(['/through']);
  });

  it('refuses a CONNECT to a refused address with 403 and the reason, and a malformed one with 400', async () => {
    const at = await start(new OutboundGuard('public'));
    const refused = await connect(at, `127.0.0.1:${port}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('127.0.0.1 is a loopback address');
    expect((await connect(at, 'no-port-here')).status).toBe(400);
    expect(hits).toEqual([]);
  });

  it('shrugs off a page that gives up while its name resolves: no upstream dialled, the proxy serves on', async () => {
    let resolved!: () => void;
    const slow = new Promise<void>((r) => (resolved = r));
    const at = await start(new OutboundGuard('loopback', async () => (await slow, [{ address: '127.0.0.1', family: 4 }])));
    for (const abandon of [
      () =>
        net.connect(Number(at.port), at.hostname, function (this: net.Socket) {
          this.write(`CONNECT slow.invalid:${port} HTTP/1.1\r\n\r\n`);
        }),
      () =>
        net.connect(Number(at.port), at.hostname, function (this: net.Socket) {
          this.write(`GET http://slow.invalid:${port}/x HTTP/1.1\r\nHost: slow.invalid\r\n\r\n`);
        }),
    ]) {
      const socket = abandon();
      socket.on('error', () => undefined);
      await new Promise((r) => setTimeout(r, 50));
      socket.resetAndDestroy();
    }
    await new Promise((r) => setTimeout(r, 50));
    resolved();
    await new Promise((r) => setTimeout(r, 50));
    expect(hits).toEqual([]);
    expect((await viaProxy(at, `http://slow.invalid:${port}/after`)).status).toBe(201);
  });

  it('answers 502 to a CONNECT whose upstream refuses the connection', async () => {
    const at = await start(new OutboundGuard('loopback'));
    const closed = await freePort();
    const answer = await connect(at, `127.0.0.1:${closed}`);
    expect(answer.status).toBe(502);
    expect(answer.body).toMatch(/connect ECONNREFUSED/);
  });

  it('refuses a plain WebSocket upgrade (Chromium tunnels WebSockets with CONNECT, where the check is)', async () => {
    const at = await start(new OutboundGuard('loopback'));
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: at.hostname,
        port: at.port,
        path: `http://127.0.0.1:${port}/ws`,
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
      });
      req.once('response', (res) => resolve(res.statusCode ?? 0));
      req.once('upgrade', (res) => resolve(res.statusCode ?? 0));
      req.once('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    expect(hits).toEqual([]);
  });
});

describe('parseAuthority and hostPortOf', () => {
  it('reads host:port of a CONNECT line, IPv6 in brackets, and nothing else', () => {
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseAuthority('[::1]:8085')).toEqual({ host: '[::1]', port: 8085 });
    expect(parseAuthority('example.com')).toBeUndefined();
    expect(parseAuthority('example.com:0')).toBeUndefined();
    expect(parseAuthority('example.com:70000')).toBeUndefined();
    expect(parseAuthority('http://example.com:80/')).toBeUndefined();
  });

  it('names an origin as the CONNECT line would, with the default port of its scheme', () => {
    expect(hostPortOf('http://Spaces:8085')).toBe('spaces:8085');
    expect(hostPortOf('https://example.com')).toBe('example.com:443');
    expect(hostPortOf('http://example.com')).toBe('example.com:80');
    expect(hostPortOf('http://[::1]:9000')).toBe('[::1]:9000');
  });
});
