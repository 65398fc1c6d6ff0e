import net from 'node:net';

/**
 * Ports below Linux's ephemeral range (32768–60999): a port chosen now and bound later by a
 * process started after many outgoing connections (Kafka, Postgres pools) could otherwise be
 * taken as one of their local ports in between.
 */
const [FIRST, LAST] = portRange(process.env.TEST_PORT_RANGE);

/**
 * `TEST_PORT_RANGE=first-last` narrows the range, so test runs side by side (npm test's two e2e modes)
 * never pick the same port between choosing it and binding it.
 */
export function portRange(given: string | undefined): [number, number] {
  if (!given) return [20_000, 32_000];
  const match = /^(\d+)-(\d+)$/.exec(given);
  const [first, last] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(first >= 1024 && last <= 65_535 && last - first >= 100))
    throw new Error(`TEST_PORT_RANGE must be first-last (1024–65535, 100 ports at least), not ${given}`);
  return [first, last];
}
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
