import { OutboundGuard } from '@platform/outbound';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { findChromium } from '../find-chromium';
import { PageBrowser } from './page-browser';
import { startVirtualDisplay, VirtualDisplay } from './virtual-display';

/**
 * The capture browser's fence, in the real Chromium: with OUTBOUND_ALLOW=public, a page on a trusted origin (as the
 * compositor is) loads, but nothing it asks for reaches another loopback server — not a redirect hop, not a
 * WebSocket, not a fetch, not an iframe — while its own origin's WebSocket and fetches still work (the compositor's
 * signaling).
 */
const ROOT = path.resolve(__dirname, '../../../..');
const tool = (script: string) => execFileSync('bash', [path.join(ROOT, 'scripts/infra', script)], { encoding: 'utf8' }).trim();

jest.setTimeout(120_000);

describe('PageBrowser behind the guarded proxy', () => {
  let trusted: http.Server;
  let secret: http.Server;
  const secretHits: string[] = [];
  const trustedHits: string[] = [];
  let display: VirtualDisplay;
  let browser: PageBrowser | undefined;

  const listen = async (server: http.Server) => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    tool('capture.sh');
    tool('chromium.sh');
    secret = http.createServer((req, res) => {
      secretHits.push(req.url ?? '');
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end('secret');
    });
    secret.on('upgrade', (req, socket) => {
      secretHits.push(`upgrade ${req.url ?? ''}`);
      socket.destroy();
    });
    const secretOrigin = await listen(secret);
    trusted = http.createServer((req, res) => {
      trustedHits.push(req.url ?? '');
      if (req.url === '/hop') return void res.writeHead(302, { location: `${secretOrigin}/after-redirect` }).end();
      if (req.url === '/own') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('own');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><body>
<img src="/hop"><iframe src="${secretOrigin}/frame"></iframe>
<script>
  window.results = {};
  fetch('/own').then((r) => r.text()).then((t) => (results.own = t), (e) => (results.own = 'failed'));
  fetch('${secretOrigin}/fetched').then((r) => r.text()).then((t) => (results.secret = t), () => (results.secret = 'blocked'));
  fetch('/hop').then((r) => r.text()).then((t) => (results.hop = t), () => (results.hop = 'blocked'));
  const ws = new WebSocket('${secretOrigin.replace('http', 'ws')}/socket');
  ws.onopen = () => (results.ws = 'open');
  ws.onerror = () => (results.ws = 'blocked');
  const ownWs = new WebSocket('ws://' + location.host + '/own-socket');
  ownWs.onmessage = (m) => (results.ownWs = m.data);
  ownWs.onerror = () => (results.ownWs = 'failed');
</script></body>`);
    });
    // the compositor's signaling: a WebSocket to its own (trusted) origin, through the proxy's CONNECT;
    // the handshake and one text frame by hand (RFC 6455), enough for the page to see it open
    trusted.on('upgrade', (req, socket) => {
      socket.on('error', () => undefined);
      const accept = createHash('sha1')
        .update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      const text = Buffer.from(`hello ${trustedHits.length}`);
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      socket.write(Buffer.concat([Buffer.from([0x81, text.length]), text]));
    });
    const trustedOrigin = await listen(trusted);
    display = await startVirtualDisplay(640, 360);
    browser = await PageBrowser.launch({
      chromiumPath: findChromium(),
      display: display.display,
      pulseServer: 'unix:/nonexistent',
      sink: 'none',
      width: 640,
      height: 360,
      guard: new OutboundGuard('public'),
      trustedOrigins: [trustedOrigin],
    });
    await browser.open(`${trustedOrigin}/page`);
  });
  afterAll(async () => {
    await browser?.close();
    browser?.removeProfile();
    await display?.stop();
    trusted?.close();
    secret?.close();
  });

  // the other server allows any origin (CORS *), so without the fence `secret` and `hop` would read 'secret'
  it('loads the trusted page and its own resources, its own WebSocket included', async () => {
    await browser!.page.waitForFunction('["own", "secret", "hop", "ws", "ownWs"].every((k) => window.results[k])');
    const results = await browser!.page.evaluate<Record<string, string>>('window.results');
    expect(results).toEqual({ own: 'own', secret: 'blocked', hop: 'blocked', ws: 'blocked', ownWs: expect.stringMatching(/^hello \d+$/) });
    expect(trustedHits).toEqual(expect.arrayContaining(['/page', '/own', '/hop']));
  });

  it('lets nothing reach the other loopback server: no redirect hop, fetch, iframe or WebSocket', () => {
    expect(secretHits).toEqual([]);
  });

  it('refuses the same in a navigation: a redirect to a refused address is a failed load', async () => {
    const origin = `http://127.0.0.1:${(trusted.address() as AddressInfo).port}`;
    await expect(browser!.open(`${origin}/hop`)).rejects.toThrow(
      `could not load ${origin}/hop: refused by OUTBOUND_ALLOW: 127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)`,
    );
    expect(secretHits).toEqual([]);
  });
});
