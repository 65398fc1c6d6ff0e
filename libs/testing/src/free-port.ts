import net from 'node:net';

/**
 * Ports below Linux's ephemeral range (32768–60999): a port chosen now and bound later by a
 * process started after many outgoing connections (Kafka, Postgres pools) could otherwise be
 * taken as one of their local ports in between.
 */
const FIRST = 20_000;
const LAST = 32_000;
const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A loopback TCP port nothing listens on right now, outside the ephemeral range, never the same twice in a process. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port found between ${FIRST} and ${LAST}`);
}
