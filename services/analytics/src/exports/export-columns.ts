import { VIEW_COLUMNS } from '../views/view-row';

/** Bookkeeping columns of `views` that are not video-view fields (the builder's clocks and version). */
const INTERNAL_COLUMNS: ReadonlySet<string> = new Set(['last_beacon_at', 'inserted_at', 'updated_at', 'version', 'event_count']);

/**
 * The columns of a view export, in table order: every video-view field of `views` (Mux's names).
 * Read at call time so columns the views module adds later are exported too.
 */
export function exportColumns(): string[] {
  return VIEW_COLUMNS.filter((column) => !INTERNAL_COLUMNS.has(column));
}
