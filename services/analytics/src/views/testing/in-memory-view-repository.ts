import { StoredViewEvent } from '../view-event';
import { StoredViewClosure, ViewRepository } from '../view-repository';
import { ViewRow } from '../view-row';

/** The two tables as arrays, with ClickHouse's reading rules (latest version wins, events once). */
export class InMemoryViewRepository implements ViewRepository {
  readonly events: StoredViewEvent[] = [];
  readonly rows: ViewRow[] = [];
  failNextSaveViews = false;

  loadEvents(viewIds: readonly string[]): Promise<Map<string, StoredViewEvent[]>> {
    const out = new Map<string, StoredViewEvent[]>();
    for (const id of viewIds) {
      const bySeq = new Map<number, StoredViewEvent>();
      for (const e of this.events) if (e.view_id === id && !bySeq.has(e.view_sequence_number)) bySeq.set(e.view_sequence_number, e);
      if (bySeq.size > 0)
        out.set(
          id,
          [...bySeq.values()].sort((a, b) => a.view_sequence_number - b.view_sequence_number),
        );
    }
    return Promise.resolve(out);
  }

  loadClosures(viewIds: readonly string[]): Promise<Map<string, StoredViewClosure>> {
    const out = new Map<string, StoredViewClosure>();
    for (const id of viewIds) {
      const row = this.latest(id);
      if (row) out.set(id, { view_id: id, view_end: row.view_end });
    }
    return Promise.resolve(out);
  }

  saveEvents(events: readonly StoredViewEvent[]): Promise<void> {
    this.events.push(...structuredClone(events));
    return Promise.resolve();
  }

  saveViews(rows: readonly ViewRow[]): Promise<void> {
    if (this.failNextSaveViews) {
      this.failNextSaveViews = false;
      return Promise.reject(new Error('store unavailable'));
    }
    this.rows.push(...structuredClone(rows));
    return Promise.resolve();
  }

  findSilentViews(cutoffMs: number, limit: number): Promise<string[]> {
    const ids = [...new Set(this.rows.map((r) => r.view_id))];
    const silent = ids.map((id) => this.latest(id) as ViewRow).filter((r) => r.view_end === null && Date.parse(`${r.last_beacon_at}Z`) < cutoffMs);
    return Promise.resolve(silent.slice(0, limit).map((r) => r.view_id));
  }

  /** The row a `FINAL` read returns: highest version, the last written among equals. */
  latest(viewId: string): ViewRow | undefined {
    let best: ViewRow | undefined;
    for (const r of this.rows) if (r.view_id === viewId && (!best || r.version >= best.version)) best = r;
    return best;
  }
}
