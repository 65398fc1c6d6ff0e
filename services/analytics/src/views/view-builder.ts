import { BeaconBatch, stringOf } from './beacon-values';
import { KeyedLock } from './keyed-lock';
import { PlaybackIdResolution, PlaybackIdResolver } from './playback-id-resolver';
import { StoredViewEvent, readBatch } from './view-event';
import { applyEvents, foldEvents, planBatch } from './view-fold';
import { ViewRepository } from './view-repository';
import { ViewRow, toViewRow } from './view-row';
import { ViewState, isClosed, isStarted } from './view-state';
import { ViewsOptions } from './views.options';

export interface IngestResult {
  /** Events new to the view (written to view_events). */
  applied: number;
  /** Events already applied (redelivery) or unusable. */
  skipped: number;
  /** True when the view's row was written. */
  rowWritten: boolean;
}

interface LoadedView {
  state: ViewState;
  /** The stored events when the state was folded from storage just now. */
  stored?: StoredViewEvent[];
}

/**
 * Folds beacon batches into views and writes them: each batch's new events to `view_events`, then
 * the view's row (a new version) to `views`. Open views' folded state stays in memory (bounded,
 * least recently used first out); a view not in memory (restart, eviction, closed view getting a
 * late event) is folded again from `view_events`. An event whose sequence number is already
 * applied changes nothing; one older than the latest applied makes the view fold again from all
 * its events, so order of arrival never matters.
 */
export class ViewBuilder {
  private readonly cache = new Map<string, ViewState>();
  private readonly locks = new KeyedLock();
  private readonly resolutions = new Map<string, PlaybackIdResolution | undefined>();

  constructor(
    private readonly repository: ViewRepository,
    private readonly resolver: PlaybackIdResolver,
    private readonly options: ViewsOptions,
    private readonly now: () => number = Date.now,
  ) {}

  ingest(batch: BeaconBatch): Promise<IngestResult> {
    // mux-embed's placeholder id for events outside any view: they describe no view.
    if (batch.view_id === '-1') return Promise.resolve({ applied: 0, skipped: batch.events.length, rowWritten: false });
    return this.locks.run(batch.view_id, () => this.ingestLocked(batch));
  }

  private async ingestLocked(batch: BeaconBatch): Promise<IngestResult> {
    const loaded = this.cache.get(batch.view_id) ? { state: this.cache.get(batch.view_id) as ViewState } : await this.load(batch.view_id);
    let state = loaded.state;
    const read = readBatch(batch, state.clockOffsetMs);
    const plan = planBatch(state, read.events);
    const skipped = batch.events.length - plan.fresh.length;
    // Folded from storage just now: rewrite the row even without news, in case the last write stopped between the two tables.
    if (plan.fresh.length === 0 && !loaded.stored) return { applied: 0, skipped, rowWritten: false };
    try {
      if (plan.inOrder) applyEvents(state, plan.fresh);
      else {
        const stored = loaded.stored ?? (await this.repository.loadEvents([batch.view_id])).get(batch.view_id) ?? [];
        state = this.refold(batch.view_id, [...stored, ...plan.fresh], state.closedBySilence);
      }
      await this.repository.saveEvents(plan.fresh);
      const row = await this.rowOf(state);
      if (row) await this.repository.saveViews([row]);
      this.remember(state);
      return { applied: plan.fresh.length, skipped, rowWritten: row !== undefined };
    } catch (err) {
      // The state may hold events that were not written: the redelivery folds from storage.
      this.cache.delete(batch.view_id);
      throw err;
    }
  }

  /**
   * Closes open views with no beacon for the silence limit (view_dropped) and forgets views that
   * never started. Looks in memory and in `views` (views open before a restart). Returns how many
   * views it closed.
   */
  async sweep(): Promise<number> {
    const cutoff = this.now() - this.options.silenceMs;
    const ids = new Set<string>();
    for (const [id, state] of this.cache) if ((state.lastReceivedAt ?? 0) < cutoff) ids.add(id);
    for (const id of await this.repository.findSilentViews(cutoff, this.options.sweepLimit)) ids.add(id);
    let closed = 0;
    for (const id of ids) {
      const didClose = await this.locks.run(id, async () => {
        const { state } = this.cache.get(id) ? { state: this.cache.get(id) as ViewState } : await this.load(id);
        if ((state.lastReceivedAt ?? 0) >= cutoff) return false;
        this.cache.delete(id);
        if (isClosed(state) || !isStarted(state)) return false;
        state.closedBySilence = true;
        const row = await this.rowOf(state);
        if (row) await this.repository.saveViews([row]);
        return row !== undefined;
      });
      if (didClose) closed++;
    }
    return closed;
  }

  /** The current row of a view (memory or storage), e.g. for tests and debugging. */
  async currentRow(viewId: string): Promise<ViewRow | undefined> {
    const state = this.cache.get(viewId) ?? (await this.load(viewId)).state;
    return this.rowOf(state);
  }

  /** Drops the in-memory states (what a restart does). */
  forgetAll(): void {
    this.cache.clear();
  }

  get openViewsInMemory(): number {
    return this.cache.size;
  }

  private async load(viewId: string): Promise<LoadedView> {
    const stored = (await this.repository.loadEvents([viewId])).get(viewId) ?? [];
    if (stored.length === 0) return { state: foldEvents(viewId, []), stored };
    const closure = (await this.repository.loadClosures([viewId])).get(viewId);
    return { state: this.refold(viewId, stored, closure?.view_end != null), stored };
  }

  private refold(viewId: string, events: readonly StoredViewEvent[], closedBySilence: boolean): ViewState {
    const state = foldEvents(viewId, events);
    // Closed by the sweeper before; a viewend arriving since makes it a clean exit after all.
    state.closedBySilence = closedBySilence && state.viewEndTime === null;
    return state;
  }

  private remember(state: ViewState): void {
    this.cache.delete(state.viewId);
    if (isClosed(state)) return;
    this.cache.set(state.viewId, state);
    if (this.cache.size > this.options.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }

  private async rowOf(state: ViewState): Promise<ViewRow | undefined> {
    if (!isStarted(state)) return undefined;
    return toViewRow(state, await this.resolve(stringOf(state.fields.playback_id)), this.now());
  }

  private async resolve(playbackId: string | null): Promise<PlaybackIdResolution | undefined> {
    if (playbackId === null) return undefined;
    if (this.resolutions.has(playbackId)) return this.resolutions.get(playbackId);
    try {
      const resolution = await this.resolver.resolve(playbackId);
      if (this.resolutions.size >= this.options.cacheSize) this.resolutions.clear();
      this.resolutions.set(playbackId, resolution);
      return resolution;
    } catch {
      return undefined;
    }
  }
}
