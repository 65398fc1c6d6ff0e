import http from 'node:http';
import net, { AddressInfo } from 'node:net';
import { rawGet } from '@platform/testing';
import { applyHttpServerTimeouts, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS } from './http-server-timeouts';

describe('applyHttpServerTimeouts', () => {
  it('sets the keep-alive timeout above clients’ idle timeouts and the headers timeout above it', () => {
    const server = http.createServer();
    applyHttpServerTimeouts(server);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThanOrEqual(61_000); // longer than a 60 s load balancer or browser
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(HEADERS_TIMEOUT_MS).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.maxRequestsPerSocket).toBe(0);
    applyHttpServerTimeouts(server, { requestTimeoutMs: 0 });
    expect(server.requestTimeout).toBe(0);
  });

  it('keeps an idle keep-alive connection open past Node’s 5 s default, announcing its timeout, so a client reusing it is not reset', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    applyHttpServerTimeouts(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    try {
      const first = await rawGet(socket, '/1');
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      expect(first).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
      await new Promise((r) => setTimeout(r, 5_500)); // idle past Node's default keep-alive timeout
      expect(await rawGet(socket, '/2')).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 15_000);
});
