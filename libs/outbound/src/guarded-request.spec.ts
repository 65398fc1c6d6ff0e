import http from 'node:http';
import { AddressInfo } from 'node:net';
import { guardedRequest } from './guarded-request';
import { OutboundGuard, OutboundRefusedError, Resolver } from './outbound-guard';

const resolver =
  (table: Record<string, string>): Resolver =>
  (host) =>
    Promise.resolve(table[host] ? [{ address: table[host], family: 4 }] : []);

describe('guardedRequest', () => {
  let server: http.Server;
  let port: number;
  const hits: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else if (req.url === '/to-named') res.writeHead(301, { location: `http://files.test:${port}/file` }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.method} ${req.headers.host}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => (hits.length = 0));

  const read = async (res: http.IncomingMessage) => {
    let text = '';
    for await (const chunk of res) text += String(chunk);
    return text;
  };

  it('fetches through a name the guard resolved, keeping the Host header', async () => {
    const guard = new OutboundGuard('loopback', resolver({ 'files.test': '127.0.0.1' }));
    const { response, url } = await guardedRequest(guard, `http://files.test:${port}/file`);
    expect(response.statusCode).toBe(200);
    expect(await read(response)).toBe(`GET files.test:${port}`);
    expect(url.pathname).toBe('/file');
  });

  it('never connects when the name resolves to a refused address (the connection uses the checked answer)', async () => {
    const guard = new OutboundGuard('public', resolver({ 'files.test': '127.0.0.1' }));
    await expect(guardedRequest(guard, `http://files.test:${port}/file`)).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(hits).toEqual([]);
  });

  it('re-checks every redirect hop: a redirect to the metadata address is refused', async () => {
    const guard = new OutboundGuard('loopback');
    await expect(guardedRequest(guard, `http://127.0.0.1:${port}/to-metadata`)).rejects.toThrow(/cloud metadata/);
  });

  it('follows allowed redirects, and stops after the limit', async () => {
    const guard = new OutboundGuard('loopback', resolver({ 'files.test': '127.0.0.1' }));
    const { response, url } = await guardedRequest(guard, `http://127.0.0.1:${port}/to-named`);
    expect(await read(response)).toBe(`GET files.test:${port}`);
    expect(url.hostname).toBe('files.test');
    await expect(guardedRequest(guard, `http://127.0.0.1:${port}/loop`, { maxRedirects: 2 })).rejects.toThrow('too many redirects');
    expect(hits.filter((h) => h === '/loop')).toHaveLength(3);
  });

  it('does not follow redirects of a POST, and sends its body', async () => {
    const guard = new OutboundGuard('loopback');
    const redirected = await guardedRequest(guard, `http://127.0.0.1:${port}/to-named`, { method: 'POST', body: '{}' });
    expect(redirected.response.statusCode).toBe(301);
    redirected.response.resume();
  });
});
