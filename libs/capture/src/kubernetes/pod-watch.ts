import { CoreV1Api, KubeConfig, V1Pod, Watch } from '@kubernetes/client-node';
import { Logger } from '@nestjs/common';

export type PodChange = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface PodWatchHandlers {
  /** One Pod changed (or went). */
  onChange(change: PodChange, pod: V1Pod): void;
  /** The Pods as they are after a relist (the watch's place had expired): one missing was deleted meanwhile. */
  onRelist(pods: V1Pod[]): void;
}

const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30_000;
/** The API server ends a watch after this long; it is taken up again at once from where it was. */
const WATCH_SECONDS = 300;

/**
 * The Pods of one label selector in one namespace, listed, then watched from the list's resourceVersion. A watch
 * that ends is taken up again from the last resourceVersion it saw (bookmarks keep it fresh); one that has expired
 * (410 Gone) is relisted first, so no change is lost across a gap. Errors are retried with a growing pause.
 */
export class PodWatch {
  private readonly logger = new Logger('PodWatch');
  private readonly core: CoreV1Api;
  private resourceVersion: string | undefined;
  private abort: AbortController | undefined;
  private watching = false;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private stopped = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    private readonly labelSelector: string,
    private readonly handlers: PodWatchHandlers,
  ) {
    this.core = kc.makeApiClient(CoreV1Api);
  }

  /** Lists the Pods and watches from there; answers the list. */
  async start(): Promise<V1Pod[]> {
    const pods = await this.list();
    this.watch();
    return pods;
  }

  /** Watches from `resourceVersion`, without listing first: what taking up an ended watch does. */
  resume(resourceVersion: string): void {
    this.resourceVersion = resourceVersion;
    this.watch();
  }

  /** The Pods now (also moves the watch's place forward when it is not running). */
  async list(): Promise<V1Pod[]> {
    const list = await this.core.listNamespacedPod({ namespace: this.namespace, labelSelector: this.labelSelector });
    if (!this.watching) this.resourceVersion = list.metadata?.resourceVersion;
    return list.items;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.abort?.abort();
  }

  private watch(): void {
    if (this.stopped) return;
    this.watching = true;
    const started = Date.now();
    let expired = false;
    let seen = false;
    let finished = false;
    const query = { labelSelector: this.labelSelector, resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: WATCH_SECONDS };
    const onEvent = (type: string, object: unknown) => {
      if (type === 'ERROR') {
        const status = object as { code?: number; message?: string };
        if (status.code === 410) expired = true;
        else this.logger.warn(`watch of ${this.namespace}/pods: ${status.message ?? JSON.stringify(object)}`);
        return;
      }
      const pod = object as V1Pod;
      this.resourceVersion = pod.metadata?.resourceVersion ?? this.resourceVersion;
      seen = true;
      if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.handlers.onChange(type, pod);
    };
    const onDone = (err: unknown) => {
      if (finished) return;
      finished = true;
      this.watching = false;
      this.abort = undefined;
      if (this.stopped) return;
      if (expired || statusOf(err) === 410) return this.relist();
      // a watch the server ended normally is taken up at once; an error, or an end with nothing seen right after
      // the start (a server turning us away), after a pause
      if (!err && (seen || Date.now() - started > RETRY_MIN_MS)) {
        this.retryMs = RETRY_MIN_MS;
        return this.watch();
      }
      if (err) this.logger.warn(`watch of ${this.namespace}/pods ended: ${describe(err)}; again in ${this.retryMs} ms`);
      this.later(() => this.watch());
    };
    new Watch(this.kc).watch(`/api/v1/namespaces/${this.namespace}/pods`, query, onEvent, onDone).then((controller) => {
      if (this.stopped || finished) controller.abort();
      else this.abort = controller;
    }, onDone);
  }

  private relist(): void {
    this.list().then(
      (pods) => {
        this.retryMs = RETRY_MIN_MS;
        this.handlers.onRelist(pods);
        this.watch();
      },
      (err: unknown) => {
        this.logger.warn(`relisting ${this.namespace}/pods failed: ${describe(err)}; again in ${this.retryMs} ms`);
        this.later(() => this.relist());
      },
    );
  }

  private later(work: () => void): void {
    if (this.stopped) return;
    this.retry = setTimeout(work, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }
}

/** The HTTP status of a failed API call or watch (ApiException's `code`, the watch's `statusCode`). */
export function statusOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; statusCode?: unknown } | null;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  return typeof e?.code === 'number' ? e.code : undefined;
}

export function describe(err: unknown): string {
  const body = (err as { body?: unknown } | null)?.body;
  if (typeof body === 'string') {
    try {
      const status = JSON.parse(body) as { message?: string };
      if (status.message) return `${statusOf(err)} ${status.message}`;
    } catch {
      // not a Status
    }
  }
  return err instanceof Error ? err.message : String(err);
}
