import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { analytics } from '@platform/proto';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { dimensionExpression } from './view-expressions';
import { viewFilterSql } from './view-filters-sql';

/** `GET /data/v1/filters/{id}` and `/dimensions/{id}`: the dimension's values, most views first. */
@Injectable()
export class DimensionValuesQuery {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  async list(request: analytics.ListDimensionValuesRequest): Promise<{ rows: unknown[]; total: number }> {
    const expression = dimensionExpression(request.dimension);
    if (!expression) throw DomainError.invalid(`${request.dimension} is not a dimension`);
    const filter = viewFilterSql(request.query);
    const params = { ...filter.params, limit: request.limit, offset: (request.page - 1) * request.limit };
    const [count] = await this.store.query<{ total: number }>(
      `SELECT count() AS total FROM (SELECT ${expression} AS value FROM views FINAL WHERE ${filter.where} GROUP BY value)`,
      params,
    );
    const rows = await this.store.query<{ value: string | null; total_count: number }>(
      `SELECT ${expression} AS value, count() AS total_count FROM views FINAL WHERE ${filter.where}
       GROUP BY value ORDER BY total_count DESC, value ASC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
      params,
    );
    return { rows: rows.map((r) => ({ value: r.value, total_count: Number(r.total_count) })), total: Number(count?.total ?? 0) };
  }
}
