import { StoredViewEvent } from './view-event';
import { ViewRow } from './view-row';

/** What the builder needs to know of a stored view to fold it again. */
export interface StoredViewClosure {
  view_id: string;
  /** Set once the view was closed (viewend, or the sweeper after the silence limit). */
  view_end: string | null;
}

/** The view builder's storage (ClickHouse tables `view_events` and `views`). */
export interface ViewRepository {
  /** Each view's stored events; a sequence number stored twice comes back once. */
  loadEvents(viewIds: readonly string[]): Promise<Map<string, StoredViewEvent[]>>;
  loadClosures(viewIds: readonly string[]): Promise<Map<string, StoredViewClosure>>;
  saveEvents(events: readonly StoredViewEvent[]): Promise<void>;
  saveViews(rows: readonly ViewRow[]): Promise<void>;
  /** Open views (no view_end) whose last beacon came before `cutoffMs`, at most `limit`. */
  findSilentViews(cutoffMs: number, limit: number): Promise<string[]>;
}

/** Nest injection token of the ViewRepository. */
export const VIEW_REPOSITORY = Symbol('VIEW_REPOSITORY');
