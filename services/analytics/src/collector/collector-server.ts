import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { applyHttpServerTimeouts, drainHttpServer, LISTEN_BACKLOG } from '@platform/grpc';
import type { CollectorHandler } from './collector-handler';

/** A whole beacon POST must arrive within this (a public port: slow senders do not hold sockets forever). */
const REQUEST_TIMEOUT_MS = 30_000;

/** The collector's own HTTP server (not the Nest app's): plain node:http, so no body parser or router sits on the hot path. */
export class CollectorServer {
  private readonly server: Server;

  constructor(handler: CollectorHandler) {
    this.server = createServer(handler.handle);
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
