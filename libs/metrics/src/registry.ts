import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The process's metrics (every service this process runs adds its own, labelled by `service`). */
export const registry = new Registry();
let processMetrics = false;

/** Node's own metrics (CPU, memory, event loop lag, GC), once per process. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

/** The counter of that name, made on first use (a metric is registered once per process). */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return (registry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames, registers: [registry] });
}

export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  return (registry.getSingleMetric(name) as Gauge<L> | undefined) ?? new Gauge({ name, help, labelNames, registers: [registry] });
}

/** Seconds, with buckets from 5 ms to 60 s unless given. */
export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets?: number[]): Histogram<L> {
  return (
    (registry.getSingleMetric(name) as Histogram<L> | undefined) ??
    new Histogram({ name, help, labelNames, registers: [registry], buckets: buckets ?? [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] })
  );
}

export interface ObservedSeries<L extends string> {
  labels: Partial<Record<L, string>>;
  value: number;
}
type SeriesReader = () => Promise<Array<ObservedSeries<string>>>;
const observedSources = new Map<string, Set<SeriesReader>>();

/**
 * A gauge whose series are read at scrape time from every source observing it in this process (the
 * embedded process runs several services); a source that fails to answer adds nothing. Returns the
 * function that stops this source being read (call it at shutdown).
 */
export function observeGauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Promise<Array<ObservedSeries<L>>>,
): () => void {
  let sources = observedSources.get(name);
  if (!sources) {
    const all = new Set<SeriesReader>();
    sources = all;
    observedSources.set(name, all);
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        const answers = await Promise.allSettled([...all].map((source) => source()));
        for (const answer of answers) {
          if (answer.status === 'fulfilled') for (const s of answer.value) this.set(s.labels as Partial<Record<L, string>>, s.value);
        }
      },
    });
  }
  const source: SeriesReader = read;
  sources.add(source);
  return () => sources.delete(source);
}
