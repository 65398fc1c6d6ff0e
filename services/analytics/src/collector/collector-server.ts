import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { applyHttpServerTimeouts, drainHttpServer, LISTEN_BACKLOG } from '@platform/grpc';
import type { CollectorHandler } from './collector-handler';

/** A whole beacon POST must arrive within this (a public port: slow senders do not hold sockets forever). */
const REQUEST_TIMEOUT_MS = 30_000;

/** Other routes of the analytics host, tried first under their prefix: resolves true when it answered. */
export interface AnalyticsHostRoute {
  prefix: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}

/**
 * The collector's own HTTP server (not the Nest app's): plain node:http, so no body parser or router
 * sits on the hot path. `routes` (export downloads) are matched by prefix before the beacons.
 */
export class CollectorServer {
  private readonly server: Server;

  constructor(handler: CollectorHandler, routes: readonly AnalyticsHostRoute[] = []) {
    this.server = createServer((req, res) => {
      const route = routes.find((r) => req.url?.startsWith(r.prefix));
      if (!route) return handler.handle(req, res);
      route.handle(req, res).then(
        (done) => done || handler.handle(req, res),
        (err: unknown) => res.destroy(err instanceof Error ? err : new Error(String(err))),
      );
    });
    applyHttpServerTimeouts(this.server, { requestTimeoutMs: REQUEST_TIMEOUT_MS });
  }

  /** Resolves with the bound port (`port` 0 picks a free one: tests). */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, LISTEN_BACKLOG, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops taking beacons; POSTs in flight finish (their batches reach the bus) for up to the platform's drain time. */
  close(): Promise<void> {
    return drainHttpServer(this.server);
  }
}
