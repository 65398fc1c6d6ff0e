import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  MONITORING_BREAKDOWN_LAG_SECONDS,
  MONITORING_BREAKDOWN_WINDOW_SECONDS,
  MONITORING_DIMENSIONS,
  MONITORING_HISTOGRAM_BUCKETS,
  MONITORING_HISTOGRAM_METRIC,
  MONITORING_METRICS,
  MONITORING_TIMESERIES_SECONDS,
  Timeframe,
  isMonitoringDimension,
  isMonitoringMetric,
  parseTimeframe,
} from '@platform/api-rules';
import { analytics } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { ApiError } from '../errors/api-error';
import { ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { dataEnvelope, resolveDataQuery } from './data-query.schemas';
import {
  monitoringBreakdownQuery,
  monitoringBreakdownResponse,
  monitoringBreakdownTimeseriesQuery,
  monitoringBreakdownTimeseriesResponse,
  monitoringHistogramQuery,
  monitoringHistogramResponse,
  monitoringNamesResponse,
  monitoringTimeseriesQuery,
  monitoringTimeseriesResponse,
} from './monitoring.schemas';
import { ANALYTICS_CLIENT } from './video-views.controller';

/** The longest timeseries read back (4,320 instants 5 s apart); the longest breakdown timeseries window. */
export const MAX_TIMESERIES_SECONDS = 6 * 3_600;
export const MAX_BREAKDOWN_WINDOW_SECONDS = 3_600;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const lastDay = (): Timeframe => ({ start: nowSeconds() - 86_400, end: nowSeconds() });
const names = (data: readonly { name: string; display_name: string }[]) => ({ data, total_row_count: null, timeframe: [lastDay().start, lastDay().end] });

function metricId(id: string): string {
  if (isMonitoringMetric(id)) return id;
  const hint = id === MONITORING_HISTOGRAM_METRIC.name ? ` (${id} has histogram-timeseries)` : '';
  throw ApiError.invalid(`MONITORING_METRIC_ID: ${JSON.stringify(id)} is not a monitoring metric${hint}`);
}

function dimension(name: string): string {
  if (!isMonitoringDimension(name)) throw ApiError.invalid(`dimension: ${name} is not a monitoring dimension (GET …/dimensions lists them)`);
  return name;
}

/** `filters[]` parsed with the Data API's grammar (the timeframe fields are not read here). */
function filtersOf(raw: { 'filters[]': string[]; filters: string[] }) {
  return resolveDataQuery({ ...raw, 'timeframe[]': [], timeframe: [], 'metric_filters[]': [], metric_filters: [] }).filters;
}

/**
 * Mux Data monitoring, the real-time API (spec 001 rule 6: not shown; shapes from Mux's SDK and
 * fixtures, docs/decisions.md): served at `/data/v1/monitoring` and at the deprecated
 * `/data/v1/realtime` the SDK's `mux.data.realTime` still calls.
 */
@ApiTags('Monitoring')
@Controller(['data/v1/monitoring', 'data/v1/realtime'])
export class MonitoringController {
  constructor(@Inject(ANALYTICS_CLIENT) private readonly analytics: analytics.AnalyticsServiceClient) {}

  @Get('dimensions')
  @ApiOperation({ summary: 'The dimensions monitoring breaks down by' })
  @ZodResponse(200, 'Dimension names', monitoringNamesResponse)
  dimensions() {
    return names(MONITORING_DIMENSIONS);
  }

  @Get('metrics')
  @ApiOperation({ summary: 'The monitoring metrics' })
  @ZodResponse(200, 'Metric names', monitoringNamesResponse)
  metrics() {
    return names([...MONITORING_METRICS, MONITORING_HISTOGRAM_METRIC]);
  }

  @Get('metrics/:METRIC_ID/breakdown')
  @ApiOperation({ summary: "A metric's value per dimension value at an instant, with concurrent viewers and negative impact" })
  @ZodResponse(200, 'One entry per dimension value', monitoringBreakdownResponse)
  async breakdown(@Param('METRIC_ID') id: string, @ZodQuery(monitoringBreakdownQuery) raw: z.output<typeof monitoringBreakdownQuery>) {
    const at = raw.timestamp ?? nowSeconds();
    const timeframe = { start: at, end: at };
    const request = {
      metric_id: metricId(id),
      dimension: dimension(raw.dimension),
      filters: filtersOf(raw),
      order_by: raw.order_by,
      order_direction: raw.order_direction,
      timeframe,
      limit: 0,
    };
    return dataEnvelope(await firstValueFrom(this.analytics.getMonitoringBreakdown(request)), timeframe);
  }

  @Get('metrics/:METRIC_ID/timeseries')
  @ApiOperation({ summary: "A metric's value and the concurrent viewers every 5 seconds since `timestamp`" })
  @ZodResponse(200, 'One point per 5 seconds', monitoringTimeseriesResponse)
  async timeseries(@Param('METRIC_ID') id: string, @ZodQuery(monitoringTimeseriesQuery) raw: z.output<typeof monitoringTimeseriesQuery>) {
    const end = nowSeconds();
    const start = raw.timestamp ?? end - MONITORING_TIMESERIES_SECONDS;
    if (start > end) throw ApiError.invalid('timestamp: must not be in the future');
    if (end - start > MAX_TIMESERIES_SECONDS) throw ApiError.invalid(`timestamp: at most ${MAX_TIMESERIES_SECONDS / 3_600} hours back`);
    const request = { metric_id: metricId(id), filters: filtersOf(raw), dimension: '', order_by: '', order_direction: '', timeframe: { start, end }, limit: 0 };
    return dataEnvelope(await firstValueFrom(this.analytics.listMonitoringTimeseries(request)), { start, end });
  }

  @Get('metrics/:METRIC_ID/breakdown-timeseries')
  @ApiOperation({ summary: 'The breakdown every 5 seconds over the timeframe (default: 5 minutes ending 15 s ago)' })
  @ZodResponse(200, 'One entry per 5 seconds', monitoringBreakdownTimeseriesResponse)
  async breakdownTimeseries(
    @Param('METRIC_ID') id: string,
    @ZodQuery(monitoringBreakdownTimeseriesQuery) raw: z.output<typeof monitoringBreakdownTimeseriesQuery>,
  ) {
    const timeframe = breakdownWindow([...raw['timeframe[]'], ...raw.timeframe]);
    const request = {
      metric_id: metricId(id),
      dimension: dimension(raw.dimension),
      filters: filtersOf(raw),
      order_by: raw.order_by,
      order_direction: raw.order_direction,
      timeframe,
      limit: raw.limit,
    };
    return dataEnvelope(await firstValueFrom(this.analytics.listMonitoringBreakdownTimeseries(request)), timeframe);
  }

  @Get('metrics/:METRIC_ID/histogram-timeseries')
  @ApiOperation({ summary: 'Video startup time per minute of the last 30, in buckets' })
  @ZodResponse(200, 'One entry per minute', monitoringHistogramResponse)
  async histogram(@Param('METRIC_ID') id: string, @ZodQuery(monitoringHistogramQuery) raw: z.output<typeof monitoringHistogramQuery>) {
    if (id !== MONITORING_HISTOGRAM_METRIC.name) throw ApiError.invalid(`MONITORING_HISTOGRAM_METRIC_ID: must be ${MONITORING_HISTOGRAM_METRIC.name}`);
    const end = nowSeconds();
    const timeframe = { start: Math.floor((end - MONITORING_TIMESERIES_SECONDS) / 60) * 60 + 60, end };
    const request = { metric_id: id, filters: filtersOf(raw), dimension: '', order_by: '', order_direction: '', timeframe, limit: 0 };
    const reply = await firstValueFrom(this.analytics.listMonitoringHistogram(request));
    return { ...dataEnvelope(reply, timeframe), meta: { buckets: MONITORING_HISTOGRAM_BUCKETS, bucket_unit: 'milliseconds' } };
  }
}

function breakdownWindow(values: string[]): Timeframe {
  if (values.length === 0) {
    const end = nowSeconds() - MONITORING_BREAKDOWN_LAG_SECONDS;
    return { start: end - MONITORING_BREAKDOWN_WINDOW_SECONDS, end };
  }
  const timeframe = parseTimeframe(values, Date.now());
  if (typeof timeframe === 'string') throw ApiError.invalid(`timeframe[]: ${timeframe}`);
  if (timeframe.end - timeframe.start > MAX_BREAKDOWN_WINDOW_SECONDS)
    throw ApiError.invalid(`timeframe[]: at most ${MAX_BREAKDOWN_WINDOW_SECONDS / 60} minutes`);
  return timeframe;
}
