import { createServer, RequestListener, Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';

/**
 * Connections the kernel queues for a listening HTTP server until the process accepts them
 * (Linux caps it at net.core.somaxconn, 4096 by default). With Node's 511, an open-loop client
 * that outran the server for a while (new connections while every open one waits) filled the
 * queue and some connections were reset (ECONNRESET); with a longer queue they wait their turn.
 */
export const LISTEN_BACKLOG = 4096;

type ListenWithBacklog = (port: number, host: string, backlog: number) => Promise<unknown>;

/** `app.listen(port, host)` with the platform's backlog (Nest passes the extra argument to http.Server#listen). */
export async function listenHttp(app: INestApplication, port: number, host: string): Promise<void> {
  await (app.listen as unknown as ListenWithBacklog).call(app, port, host, LISTEN_BACKLOG);
}

/**
 * The app's routes served on one more port, by a server of its own (the playback service's image host
 * beside its playback host): one Nest app, one set of providers, two listening sockets. Controllers tell
 * the ports apart by the socket's local port (`servedOn` guards).
 */
export async function listenHttpAlso(app: INestApplication, port: number, host: string): Promise<Server> {
  const server = createServer(app.getHttpAdapter().getInstance() as RequestListener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, LISTEN_BACKLOG, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
