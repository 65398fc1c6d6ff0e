import http from 'node:http';
import net from 'node:net';
import { AddressInfo } from 'node:net';
import { applyHttpServerTimeouts, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS } from './http-server-timeouts';

/** Sends one request on a raw socket and reads one whole response (Content-Length framed). */
function exchange(socket: net.Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const [head, body = ''] = text.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
      if (body.length >= length) done(() => resolve(text));
    };
    const onEnd = () => done(() => reject(new Error('the server closed the connection')));
    const done = (then: () => void) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      then();
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`);
  });
}

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
      const first = await exchange(socket, '/1');
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      expect(first).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
      await new Promise((r) => setTimeout(r, 5_500)); // idle past Node's default keep-alive timeout
      expect(await exchange(socket, '/2')).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 15_000);
});
