import net from 'node:net';
import { listenBacklog, maxListenBacklog, rawGet } from '@platform/testing';
import { platform } from './support/context';

/** Every HTTP server the platform runs, with a path each answers with a complete response. */
function httpServers(): Array<{ name: string; url: string; path: string }> {
  const env = JSON.parse(process.env.E2E_PLATFORM_ENV ?? '{}') as Record<string, string>;
  return [
    { name: 'API (gateway)', url: platform.baseUrl, path: '/healthz' },
    { name: 'playback host', url: process.env.E2E_STREAM_URL!, path: '/no-such-playback-id.m3u8' },
    { name: 'image host', url: process.env.E2E_IMAGE_URL!, path: '/no-such-playback-id/thumbnail.jpg' },
    { name: 'upload host', url: env.UPLOAD_BASE_URL ?? `http://127.0.0.1:${env.UPLOAD_PORT}`, path: '/upload/no-such-upload' },
  ];
}

describe('every HTTP server of the platform: no ECONNRESET for clients under load', () => {
  it.each(httpServers().map((s) => [s.name, s] as const))(
    '%s queues up to 4096 connections for accept (Node’s 511 overflowed and reset them)',
    (_name, server) => {
      expect(listenBacklog(Number(new URL(server.url).port))).toBe(Math.min(4096, maxListenBacklog()));
    },
  );

  it.each(httpServers().map((s) => [s.name, s] as const))(
    '%s keeps an idle connection open past Node’s 5 s default and says for how long',
    async (_name, server) => {
      const { hostname, port } = new URL(server.url);
      const socket = net.connect(Number(port), hostname);
      try {
        const first = await rawGet(socket, server.path);
        expect(first).toMatch(/^HTTP\/1\.1 \d{3} /);
        expect(first).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
        expect(first).not.toMatch(/\r\nConnection: close\r\n/i);
        await new Promise((r) => setTimeout(r, 5_500)); // a server on Node's default closes here
        expect(await rawGet(socket, server.path)).toMatch(/^HTTP\/1\.1 \d{3} /);
      } finally {
        socket.destroy();
      }
    },
    20_000,
  );
});
