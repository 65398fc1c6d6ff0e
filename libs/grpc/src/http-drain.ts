import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';

/** How long requests in flight may run on once their service stops; then their connections are closed. */
export const HTTP_DRAIN_MS = 5_000;

/**
 * Stops an HTTP server taking requests: it stops listening and closes idle keep-alive connections
 * at once, lets requests in flight finish for up to `ms`, then closes what is left (an upload
 * still streaming: its client retries the chunk, as after a crash).
 */
export async function drainHttpServer(server: Server, ms = HTTP_DRAIN_MS): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), ms);
  await closed;
  clearTimeout(timer);
}

/**
 * The app to close, its HTTP server (and any other server of its routes, `alsoServers`) drained first (drainHttpServer), then its shutdown hooks run.
 * A wrapper: Nest's application object is a proxy that ignores assignments to its methods.
 */
export function drainHttpOnClose(app: INestApplication, ms = HTTP_DRAIN_MS, alsoServers: readonly Server[] = []): { close(): Promise<void> } {
  return {
    close: async () => {
      await Promise.all([app.getHttpServer() as Server, ...alsoServers].map((server) => drainHttpServer(server, ms)));
      await app.close();
    },
  };
}
