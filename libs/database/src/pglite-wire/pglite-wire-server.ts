import net from 'node:net';
import { InProcessSocket } from './in-process-socket';
import { WireDatabase, WireScheduler } from './wire-scheduler';
import { WireSession, WireTransport } from './wire-session';

/**
 * Serves one PGlite database over the Postgres wire protocol: on a loopback TCP port (the
 * token CLI, other processes) and to `pg` clients of the same process through in-process
 * sockets (no kernel round trip per message). Replaces @electric-sql/pglite-socket, which
 * ran each wire message as its own call with its own socket write and needed its queue
 * patched to keep extended-protocol sequences whole (see wire-reader.ts, wire-scheduler.ts).
 */
export class PgliteWireServer {
  private readonly scheduler: WireScheduler;
  private readonly sessions = new Set<WireSession>();
  private server: net.Server | undefined;

  constructor(db: WireDatabase) {
    this.scheduler = new WireScheduler(db);
  }

  /** Listens on host:port (0: any free port); resolves to the port. */
  listen(host: string, port: number, maxConnections: number): Promise<number> {
    const server = net.createServer((socket) => {
      socket.setNoDelay(true);
      const session = this.open({ write: (bytes) => socket.write(bytes), end: () => socket.end() });
      socket.on('data', (chunk: Buffer) => session.receive(chunk));
      socket.on('close', () => session.close());
      socket.on('error', () => socket.destroy()); // 'close' follows
    });
    server.maxConnections = maxConnections;
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port));
    });
  }

  /** A socket for `pg` (its `stream` option) connected to this database inside the process. */
  connectInProcess(): InProcessSocket {
    return new InProcessSocket((transport) => this.open(transport));
  }

  async close(): Promise<void> {
    for (const session of [...this.sessions]) session.close();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private open(transport: WireTransport): WireSession {
    const session = new WireSession(this.scheduler, transport, (closed) => this.sessions.delete(closed));
    this.sessions.add(session);
    return session;
  }
}
