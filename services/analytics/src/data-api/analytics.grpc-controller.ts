import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { analytics, common } from '@platform/proto';
import { DimensionValuesQuery } from './dimension-values.query';
import { ErrorsQuery } from './errors.query';
import { VideoViewsQuery } from './video-views.query';
import { VIEW_EXPORTS_LISTER, ViewExportsLister } from './view-exports-lister';
import { Inject } from '@nestjs/common';
import { MetricReply, MetricsQuery } from '../metrics/metrics.query';
import { ComparisonQuery } from '../metrics/comparison.query';
import { dataRows } from '../data-rows';

const metricRows = (reply: MetricReply): analytics.MetricRows => ({ ...dataRows(reply.data, reply.total), meta: reply.meta });

/** The Data API's RPCs (proto/analytics/v1/analytics.proto). */
@Controller()
export class AnalyticsGrpcController {
  constructor(
    private readonly views: VideoViewsQuery,
    private readonly errors: ErrorsQuery,
    private readonly dimensionValues: DimensionValuesQuery,
    @Inject(VIEW_EXPORTS_LISTER) private readonly exports: ViewExportsLister,
    private readonly metrics: MetricsQuery,
    private readonly comparison: ComparisonQuery,
  ) {}

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListVideoViews')
  async listVideoViews(request: analytics.ListVideoViewsRequest): Promise<analytics.DataRows> {
    const page = await this.views.list(request);
    return dataRows(page.rows, page.total);
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'GetVideoView')
  async getVideoView(request: common.IdRequest): Promise<analytics.DataRows> {
    return dataRows(await this.views.get(request.id));
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListErrors')
  async listErrors(request: analytics.DataQuery): Promise<analytics.DataRows> {
    const list = await this.errors.list(request);
    return dataRows(list, list.length);
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListDimensionValues')
  async listDimensionValues(request: analytics.ListDimensionValuesRequest): Promise<analytics.DataRows> {
    const page = await this.dimensionValues.list(request);
    return dataRows(page.rows, page.total);
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListViewExports')
  async listViewExports(): Promise<analytics.DataRows> {
    return dataRows(await this.exports.listExportDays());
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'GetMetricOverall')
  async getMetricOverall(request: analytics.MetricRequest): Promise<analytics.MetricRows> {
    return metricRows(await this.metrics.overall(request));
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListMetricBreakdown')
  async listMetricBreakdown(request: analytics.MetricBreakdownRequest): Promise<analytics.MetricRows> {
    return metricRows(await this.metrics.breakdown(request));
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListMetricTimeseries')
  async listMetricTimeseries(request: analytics.MetricTimeseriesRequest): Promise<analytics.MetricRows> {
    return metricRows(await this.metrics.timeseries(request));
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'ListMetricInsights')
  async listMetricInsights(request: analytics.MetricInsightsRequest): Promise<analytics.MetricRows> {
    return metricRows(await this.metrics.insights(request));
  }

  @GrpcMethod(analytics.ANALYTICS_SERVICE_NAME, 'GetMetricComparison')
  async getMetricComparison(request: analytics.MetricComparisonRequest): Promise<analytics.DataRows> {
    return dataRows(await this.comparison.compare(request));
  }
}
