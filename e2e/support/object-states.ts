import { readUntil } from '@platform/testing';
import { api } from './context';

/** A body the API answered for an object, and when it was first and last seen so. */
export interface ObservedState {
  body: Record<string, unknown>;
  firstSeen: number;
  lastSeen: number;
}

export type ObjectKind =
  'asset' | 'upload' | 'live' | 'simulcast_target' | 'signing_key' | 'playback_restriction' | 'transcription_vocabulary' | 'web_input' | 'space' | 'broadcast';

/** Where GET reads each kind (a simulcast target or a broadcast: under its parent, the path given to `watch`). */
const PATHS: Record<Exclude<ObjectKind, 'simulcast_target' | 'broadcast'>, string> = {
  asset: '/video/v1/assets/',
  upload: '/video/v1/uploads/',
  live: '/video/v1/live-streams/',
  signing_key: '/system/v1/signing-keys/',
  playback_restriction: '/video/v1/playback-restrictions/',
  transcription_vocabulary: '/video/v1/transcription-vocabularies/',
  web_input: '/video/v1/web-inputs/',
  space: '/video/v1/spaces/',
};

interface Watched {
  kind: ObjectKind;
  path: string;
  since: number;
  states: ObservedState[];
  gone?: number;
  error?: Error;
  stopped: boolean;
  loop?: Promise<void>;
}

/**
 * Reads objects with `GET` over and over while a test drives them, keeping every distinct body with
 * when it was seen: what the API showed "at that moment", to hold the webhooks' data against.
 * Objects the platform makes (an upload's asset, a stream's recording and simulcast targets) are
 * watched as soon as a body names them.
 */
export class ObjectStates {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly pauseMs = 10) {}

  watch(kind: ObjectKind, id: string, path?: string): void {
    if (this.watched.has(id)) return;
    const w: Watched = {
      kind,
      path: path ?? `${PATHS[kind as Exclude<ObjectKind, 'simulcast_target' | 'broadcast'>]}${id}`,
      since: Date.now(),
      states: [],
      stopped: false,
    };
    this.watched.set(id, w);
    w.loop = this.poll(w);
  }

  ids(): string[] {
    return [...this.watched.keys()];
  }

  kindOf(id: string): ObjectKind | undefined {
    return this.watched.get(id)?.kind;
  }

  /** The path GET reads the object at. */
  pathOf(id: string): string | undefined {
    return this.watched.get(id)?.path;
  }

  states(id: string): ObservedState[] {
    return this.watched.get(id)?.states ?? [];
  }

  /** When watching began; undefined for an object never watched. */
  watchingSince(id: string): number | undefined {
    return this.watched.get(id)?.since;
  }

  /** When GET first answered 404 (deleted). */
  goneAt(id: string): number | undefined {
    return this.watched.get(id)?.gone;
  }

  /** Waits until the latest body (undefined once gone) passes `check`, and returns it. */
  async until(id: string, check: (body: Record<string, unknown> | undefined) => boolean, timeoutMs = 30_000): Promise<Record<string, unknown> | undefined> {
    // a failed watch rejects at once (readUntil does not retry a read that throws)
    const read = () => {
      const w = this.watched.get(id); // not yet: an object a body will name
      if (w?.error) throw w.error;
      const latest = w?.gone ? undefined : w?.states.at(-1)?.body;
      return { kind: w?.kind, latest, done: w !== undefined && (w.gone !== undefined || latest !== undefined) && check(latest) };
    };
    const { kind, latest, done } = await readUntil(read, (r) => r.done, { timeoutMs, intervalMs: 20 });
    if (done) return latest;
    throw new Error(`${kind ?? 'object'} ${id}: timed out; last body ${JSON.stringify(latest)}`);
  }

  /** Runs `action`, then waits until GET of `id` shows a body other than the last one seen before it (or a 404). */
  async after<T>(id: string, action: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
    const before = this.states(id).length;
    const result = await action();
    await this.until(id, () => this.states(id).length > before || this.goneAt(id) !== undefined, timeoutMs);
    return result;
  }

  async stop(): Promise<void> {
    for (const w of this.watched.values()) w.stopped = true;
    await Promise.all([...this.watched.values()].map((w) => w.loop ?? Promise.resolve()));
  }

  /** The first failure of any watch (a GET answering neither 200 nor 404), if one failed. */
  failure(): Error | undefined {
    return [...this.watched.values()].find((w) => w.error)?.error;
  }

  private async poll(w: Watched): Promise<void> {
    try {
      await this.pollUntilGone(w);
    } catch (err) {
      w.error = err instanceof Error ? err : new Error(String(err));
    }
  }

  private async pollUntilGone(w: Watched): Promise<void> {
    while (!w.stopped) {
      const res = await api('GET', w.path);
      const now = Date.now();
      if (res.status === 404) {
        w.gone = now;
        return;
      }
      if (res.status !== 200) throw new Error(`GET ${w.path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      const body = (res.body as { data: Record<string, unknown> }).data;
      const last = w.states.at(-1);
      if (last && JSON.stringify(last.body) === JSON.stringify(body)) last.lastSeen = now;
      else w.states.push({ body, firstSeen: now, lastSeen: now });
      this.discover(w.kind, body);
      await new Promise((r) => setTimeout(r, this.pauseMs));
    }
  }

  /** Objects a body names that the platform made. */
  private discover(kind: ObjectKind, body: Record<string, unknown>): void {
    if (kind === 'upload' && typeof body.asset_id === 'string') this.watch('asset', body.asset_id);
    if (kind !== 'live') return;
    const stream = body as { id: string; active_asset_id?: string; recent_asset_ids?: string[]; simulcast_targets?: Array<{ id: string }> };
    for (const assetId of [stream.active_asset_id, ...(stream.recent_asset_ids ?? [])]) if (assetId) this.watch('asset', assetId);
    for (const t of stream.simulcast_targets ?? []) this.watch('simulcast_target', t.id, `/video/v1/live-streams/${stream.id}/simulcast-targets/${t.id}`);
  }
}
