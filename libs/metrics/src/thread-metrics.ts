import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { registry } from './registry';
import type { MetricsSource } from './metrics-server';

interface MetricsRequest {
  metricsRequest: number;
}
interface MetricsReply {
  metricsReply: number;
  metrics: object[];
}

let serving = false;

/** In a worker thread: answers the main thread's requests for this thread's metrics (its registry as JSON). */
export function serveMetricsToParent(): void {
  if (isMainThread || !parentPort || serving) return;
  serving = true;
  const port = parentPort;
  port.on('message', (message: unknown) => {
    const id = (message as MetricsRequest | null)?.metricsRequest;
    if (typeof id !== 'number') return;
    void registry.getMetricsAsJSON().then((metrics) => port.postMessage({ metricsReply: id, metrics } satisfies MetricsReply));
  });
}

/** In the main thread: a worker's metrics, asked for on each scrape (none after 2 s without an answer). */
export function metricsOfWorker(worker: Worker): MetricsSource {
  let next = 0;
  return () =>
    new Promise((resolve) => {
      const id = ++next;
      const timer = setTimeout(() => done([]), 2000);
      const onMessage = (message: unknown) => {
        const reply = message as MetricsReply | null;
        if (reply?.metricsReply === id) done(reply.metrics);
      };
      const done = (metrics: object[]) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        resolve(metrics);
      };
      worker.on('message', onMessage);
      worker.postMessage({ metricsRequest: id } satisfies MetricsRequest);
    });
}
