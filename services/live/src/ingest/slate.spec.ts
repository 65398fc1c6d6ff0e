import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OutboundGuard } from '@platform/outbound';
import { downloadSlate, slateEnabled } from './slate';

describe('slateEnabled', () => {
  it('is always on for reduced and low latency with a reconnect window, on for standard only when asked', () => {
    expect(slateEnabled({ reconnectWindow: 10, latencyMode: 'reduced', useSlateForStandardLatency: false })).toBe(true);
    expect(slateEnabled({ reconnectWindow: 10, latencyMode: 'low', useSlateForStandardLatency: false })).toBe(true);
    expect(slateEnabled({ reconnectWindow: 60, latencyMode: 'standard', useSlateForStandardLatency: false })).toBe(false);
    expect(slateEnabled({ reconnectWindow: 60, latencyMode: 'standard', useSlateForStandardLatency: true })).toBe(true);
  });

  it('is off without a reconnect window', () => {
    expect(slateEnabled({ reconnectWindow: 0, latencyMode: 'low', useSlateForStandardLatency: true })).toBe(false);
  });
});

describe('downloadSlate', () => {
  let dir: string;
  let server: http.Server;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slate-download-'));
    server = http.createServer((req, res) => {
      requests += 1;
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('png bytes'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const isImage = () => Promise.resolve(true);

  it('downloads the image when OUTBOUND_ALLOW lets the platform reach its address', async () => {
    const warnings: string[] = [];
    const file = await downloadSlate(`${url}/slate.png`, path.join(dir, 'a'), isImage, (m) => warnings.push(m), new OutboundGuard('loopback'));
    expect(file).toBe(path.join(dir, 'a'));
    expect(fs.readFileSync(file!, 'utf8')).toBe('png bytes');
    expect(warnings).toEqual([]);
  });

  it('never connects to a refused address: the plain slate is used and the reason logged (issue 12, drill 5)', async () => {
    const before = requests;
    const warnings: string[] = [];
    const file = await downloadSlate(`${url}/slate.png`, path.join(dir, 'b'), isImage, (m) => warnings.push(m), new OutboundGuard('public'));
    expect(file).toBeUndefined();
    expect(requests).toBe(before);
    expect(warnings).toEqual([
      'reconnect_slate_url could not be downloaded (refused: 127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)); the default slate is used',
    ]);
    expect(fs.existsSync(path.join(dir, 'b'))).toBe(false);
  });

  it('does not follow a redirect to a refused address', async () => {
    const warnings: string[] = [];
    const file = await downloadSlate(`${url}/redirect`, path.join(dir, 'c'), isImage, (m) => warnings.push(m), new OutboundGuard('loopback'));
    expect(file).toBeUndefined();
    expect(warnings[0]).toContain('refused: 169.254.169.254 is a cloud metadata address');
  });
});
