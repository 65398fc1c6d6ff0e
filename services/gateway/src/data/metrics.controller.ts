import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { METRIC_IDS, Timeframe, dimensionNamed } from '@platform/api-rules';
import { analytics } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { ApiError } from '../errors/api-error';
import { ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { dataEnvelope, resolveDataQuery, toGrpcDataQuery } from './data-query.schemas';
import {
  metricComparisonQuery,
  metricComparisonResponse,
  metricInsightsQuery,
  metricInsightsResponse,
  metricBreakdownQuery,
  metricBreakdownResponse,
  metricOverallQuery,
  metricOverallResponse,
  metricTimeseriesQuery,
  metricTimeseriesResponse,
} from './metrics.schemas';
import { ANALYTICS_CLIENT } from './video-views.controller';

const METRICS = new Set<string>(METRIC_IDS);

/** Spec 001 §4 metrics: the envelope with `meta` (aggregation basis, granularity). */
function metricEnvelope(reply: analytics.MetricRows, timeframe: Timeframe) {
  return { ...dataEnvelope(reply, timeframe), meta: reply.meta ?? { aggregation: 'view_end' } };
}

/**
 * An unknown metric id is a 400 `invalid_parameters`, as an unknown dimension is: the id is a
 * parameter from a closed list, not a resource that might exist.
 */
function metricRequest(id: string, raw: z.output<typeof metricOverallQuery>) {
  if (!METRICS.has(id)) throw ApiError.invalid(`METRIC_ID: ${JSON.stringify(id)} is not a metric id`);
  const query = resolveDataQuery(raw);
  return { query, request: { metric_id: id, measurement: raw.measurement, query: toGrpcDataQuery(query) } };
}

@ApiTags('Metrics')
@Controller('data/v1/metrics')
export class MetricsController {
  constructor(@Inject(ANALYTICS_CLIENT) private readonly analytics: analytics.AnalyticsServiceClient) {}

  @Get('comparison')
  @ApiOperation({ summary: 'Every metric for the views with one value of a dimension' })
  @ZodResponse(200, 'Totals, then the metric groups', metricComparisonResponse)
  async comparison(@ZodQuery(metricComparisonQuery) raw: z.output<typeof metricComparisonQuery>) {
    const dimension = raw.dimension === undefined ? undefined : dimensionNamed(raw.dimension);
    if (raw.dimension !== undefined && !dimension)
      throw ApiError.invalid(`dimension: ${raw.dimension} is not a dimension (GET /data/v1/dimensions lists them)`);
    if (dimension && raw.value === undefined) throw ApiError.invalid('value: required with dimension');
    const query = resolveDataQuery(raw);
    const reply = await firstValueFrom(this.analytics.getMetricComparison({ query: toGrpcDataQuery(query), dimension, value: raw.value }));
    return dataEnvelope(reply, query.timeframe);
  }

  @Get(':METRIC_ID/overall')
  @ApiOperation({ summary: "A metric's value over the timeframe, with its totals and the unfiltered value" })
  @ZodResponse(200, 'The overall value', metricOverallResponse)
  async overall(@Param('METRIC_ID') id: string, @ZodQuery(metricOverallQuery) raw: z.output<typeof metricOverallQuery>) {
    const { query, request } = metricRequest(id, raw);
    const reply = await firstValueFrom(this.analytics.getMetricOverall(request));
    return { ...metricEnvelope(reply, query.timeframe), total_row_count: null };
  }

  @Get(':METRIC_ID/breakdown')
  @ApiOperation({ summary: "A metric's value per value of a dimension" })
  @ZodResponse(200, 'A page of dimension values', metricBreakdownResponse)
  async breakdown(@Param('METRIC_ID') id: string, @ZodQuery(metricBreakdownQuery) raw: z.output<typeof metricBreakdownQuery>) {
    const dimension = dimensionNamed(raw.group_by);
    if (!dimension) throw ApiError.invalid(`group_by: ${raw.group_by} is not a dimension (GET /data/v1/dimensions lists them)`);
    const { query, request } = metricRequest(id, raw);
    const reply = await firstValueFrom(
      this.analytics.listMetricBreakdown({
        metric: request,
        group_by: dimension,
        order_by: raw.order_by,
        order_direction: raw.order_direction,
        limit: raw.limit,
        page: raw.page,
      }),
    );
    return metricEnvelope(reply, query.timeframe);
  }

  @Get(':METRIC_ID/timeseries')
  @ApiOperation({ summary: "A metric's value per interval" })
  @ZodResponse(200, 'One point per interval', metricTimeseriesResponse)
  async timeseries(@Param('METRIC_ID') id: string, @ZodQuery(metricTimeseriesQuery) raw: z.output<typeof metricTimeseriesQuery>) {
    const { query, request } = metricRequest(id, raw);
    const reply = await firstValueFrom(this.analytics.listMetricTimeseries({ metric: request, group_by: raw.group_by, order_direction: raw.order_direction }));
    return metricEnvelope(reply, query.timeframe);
  }

  @Get(':METRIC_ID/insights')
  @ApiOperation({ summary: 'The dimension values that hurt a metric most, by negative impact' })
  @ZodResponse(200, 'Insights, worst first', metricInsightsResponse)
  async insights(@Param('METRIC_ID') id: string, @ZodQuery(metricInsightsQuery) raw: z.output<typeof metricInsightsQuery>) {
    const { query, request } = metricRequest(id, raw);
    const reply = await firstValueFrom(this.analytics.listMetricInsights({ metric: request, order_direction: raw.order_direction }));
    return metricEnvelope(reply, query.timeframe);
  }
}
