import { Inject, Injectable } from '@nestjs/common';
import { analytics } from '@platform/proto';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { isoOf } from './view-time';
import { viewFilterSql } from './view-filters-sql';

interface ErrorRow {
  error_type_id: number;
  player_error_code: string | null;
  message: string | null;
  views: number;
  total_views: number;
  last_seen: string;
}

/**
 * `GET /data/v1/errors` (spec 001 §2.3): each error (`error_type_id`: one code and message) with
 * the number of views that ended in the timeframe carrying it, its share of all those views (a
 * fraction, 0–1, as Mux's API gives ratios) and when it was last seen.
 */
@Injectable()
export class ErrorsQuery {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  async list(query: analytics.DataQuery): Promise<unknown[]> {
    const filter = viewFilterSql(query);
    const rows = await this.store.query<ErrorRow>(
      `SELECT error_type_id, any(player_error_code) AS player_error_code, any(player_error_message) AS message,
              count() AS views, any(total) AS total_views, toString(max(view_end)) AS last_seen
       FROM (SELECT error_type_id, player_error_code, player_error_message, view_end, count() OVER () AS total
             FROM views FINAL WHERE ${filter.where})
       WHERE error_type_id IS NOT NULL
       GROUP BY error_type_id
       ORDER BY views DESC, error_type_id ASC`,
      filter.params,
    );
    return rows.map((row) => ({
      id: Number(row.error_type_id),
      code: codeNumber(row.player_error_code),
      player_error_code: row.player_error_code,
      message: row.message,
      description: null,
      notes: null,
      percentage: Number(row.total_views) > 0 ? Number(row.views) / Number(row.total_views) : 0,
      count: Number(row.views),
      last_seen: isoOf(row.last_seen),
    }));
  }
}

function codeNumber(code: string | null): number | null {
  return code !== null && /^-?\d{1,9}$/.test(code) ? Number(code) : null;
}
