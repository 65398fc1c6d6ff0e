import http from 'node:http';
import { AddressInfo } from 'node:net';
import { isMainThread } from 'node:worker_threads';
import { serveMetricsToParent } from './thread-metrics';
import { collectProcessMetrics, registry } from './registry';

/** Metrics of other threads of this process (the embedded gateway's worker), in prom-client's JSON form. */
export type MetricsSource = () => Promise<object[]>;

let running: Promise<MetricsServer> | undefined;
const sources = new Set<MetricsSource>();

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Adds another thread's metrics to what `/metrics` answers. */
export function addMetricsSource(source: MetricsSource): void {
  sources.add(source);
}

/**
 * `GET /metrics` on `port` (Prometheus' text format) for everything this process counts: one server per
 * process however many services it runs (the embedded platform runs ten; a pod runs one). Later calls
 * get the same server. Port 0 picks a free one (tests).
 */
export function startMetricsServer(port: number, host: string): Promise<MetricsServer> {
  collectProcessMetrics();
  // a worker thread (the embedded gateway) has its metrics served by the main thread's server
  if (!isMainThread) {
    serveMetricsToParent();
    return Promise.resolve({ port: 0, close: () => Promise.resolve() });
  }
  running ??= listen(port, host);
  return running;
}

async function listen(port: number, host: string): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://x').pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    void metricsText().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        running = undefined;
        server.close(() => resolve());
      }),
  };
}

/** This thread's metrics, with the other threads' merged in (same series summed). */
export async function metricsText(): Promise<string> {
  if (sources.size === 0) return registry.metrics();
  const { AggregatorRegistry } = await import('prom-client');
  const all = [await registry.getMetricsAsJSON(), ...(await Promise.all([...sources].map((s) => s())))];
  return AggregatorRegistry.aggregate(all).metrics();
}
