import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { analytics } from '@platform/proto';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { pageWithTotal } from '../clickhouse/paged-query';
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
    const { rows, total } = await pageWithTotal<{ value: string | null; total_count: number }>(
      this.store,
      {
        columns: `${expression} AS value, count() AS total_count`,
        from: `FROM views FINAL WHERE ${filter.where} GROUP BY value`,
        orderBy: 'total_count DESC, value ASC',
      },
      filter.params,
      { limit: request.limit, offset: (request.page - 1) * request.limit },
    );
    return { rows: rows.map((r) => ({ value: r.value, total_count: Number(r.total_count) })), total };
  }
}
