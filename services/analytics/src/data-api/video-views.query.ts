import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { analytics } from '@platform/proto';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { pageWithTotal } from '../clickhouse/paged-query';
import { toVideoViewDetail, toVideoViewListItem, ViewEventRow } from './video-view.mapper';
import { viewFilterSql } from './view-filters-sql';

/** Spec 001 §2.1 list columns, read from `views`. */
const LIST_COLUMNS = [
  'view_id',
  'view_start',
  'view_end',
  'video_title',
  'viewer_os_family',
  'viewer_application_name',
  'country_code',
  'player_error_message',
  'player_error_code',
  'error_type_id',
  'playback_failure',
  'viewer_experience_score',
  'watch_time',
].join(', ');

/** `GET /data/v1/video-views` and `/video-views/{id}` over ClickHouse. */
@Injectable()
export class VideoViewsQuery {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  async list(request: analytics.ListVideoViewsRequest): Promise<{ rows: unknown[]; total: number }> {
    const filter = viewFilterSql(request.query);
    const clauses = [filter.where];
    const params: Record<string, string | number> = { ...filter.params };
    if (request.viewer_id !== undefined) {
      clauses.push('ifNull(viewer_user_id, mux_viewer_id) = {viewer:String}');
      params.viewer = request.viewer_id;
    }
    if (request.error_id === 'any') clauses.push('error_type_id IS NOT NULL');
    else if (request.error_id !== undefined) {
      clauses.push('error_type_id = {error_id:UInt32}');
      params.error_id = Number(request.error_id);
    }
    const where = clauses.join(' AND ');
    const direction = request.order_direction === 'asc' ? 'ASC' : 'DESC';
    const { rows, total } = await pageWithTotal(
      this.store,
      { columns: LIST_COLUMNS, from: `FROM views FINAL WHERE ${where}`, orderBy: `view_end ${direction}, view_id ${direction}` },
      params,
      { limit: request.limit, offset: (request.page - 1) * request.limit },
    );
    return { rows: rows.map((row) => toVideoViewListItem(row, total)), total };
  }

  async get(id: string): Promise<unknown> {
    const [row] = await this.store.query<Record<string, unknown>>('SELECT * FROM views FINAL WHERE view_id = {id:String} LIMIT 1', { id });
    if (!row) throw DomainError.notFound('video view');
    const events = await this.store.query<ViewEventRow>(
      'SELECT view_sequence_number, name, toUnixTimestamp64Milli(event_time) AS event_time, viewer_time, playback_time, details FROM view_events WHERE view_id = {id:String} ORDER BY view_sequence_number LIMIT 1 BY view_sequence_number',
      { id },
    );
    return toVideoViewDetail(row, events);
  }
}
