import type { AnalyticsStore } from '../clickhouse/analytics-store.port';
import type { CountsTarget } from './viewer-counts-token';

/** An open view counts while its last beacon is this recent (mux-embed beats every 10 s while playing). */
export const OPEN_VIEW_WINDOW_MS = 60_000;

export interface ViewerCounts {
  views: number;
  viewers: number;
}

/**
 * Current views and viewers of a video id, asset, playback id or live stream: the open views
 * (no `view_end`) heard from within the window, and the distinct viewers among them (the
 * customer's viewer id, else mux-embed's cookie id).
 */
export class ViewerCountsQuery {
  constructor(
    private readonly store: AnalyticsStore,
    private readonly windowMs = OPEN_VIEW_WINDOW_MS,
  ) {}

  async count(target: CountsTarget, now: number): Promise<ViewerCounts> {
    // target.column comes from COUNTED_COLUMNS, never from the request
    const rows = await this.store.query<ViewerCounts>(
      `SELECT count() AS views, uniqExact(ifNull(viewer_user_id, mux_viewer_id)) AS viewers
       FROM views FINAL
       WHERE ${target.column} = {id:String} AND view_end IS NULL
         AND last_beacon_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')`,
      { id: target.id, since: now - this.windowMs },
    );
    return { views: Number(rows[0]?.views ?? 0), viewers: Number(rows[0]?.viewers ?? 0) };
  }
}
