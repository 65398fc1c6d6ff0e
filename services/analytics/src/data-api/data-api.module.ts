import { DynamicModule, Module } from '@nestjs/common';
import { ViewExportsService } from '../exports/view-exports.service';
import { AnalyticsGrpcController } from './analytics.grpc-controller';
import { DimensionValuesQuery } from './dimension-values.query';
import { ErrorsQuery } from './errors.query';
import { MetricsQuery } from '../metrics/metrics.query';
import { ComparisonQuery } from '../metrics/comparison.query';
import { VideoViewsQuery } from './video-views.query';
import { MonitoringGrpcController } from '../monitoring/monitoring.grpc-controller';
import { MonitoringQuery } from '../monitoring/monitoring.query';
import { VIEW_EXPORTS_LISTER } from './view-exports-lister';

/** The Data API's reads over ClickHouse (needs ANALYTICS_STORE) and the exports list of `viewExports`. */
@Module({})
export class DataApiModule {
  static forRoot(viewExports: DynamicModule): DynamicModule {
    return {
      module: DataApiModule,
      imports: [viewExports],
      controllers: [AnalyticsGrpcController, MonitoringGrpcController],
      providers: [
        VideoViewsQuery,
        ErrorsQuery,
        DimensionValuesQuery,
        MetricsQuery,
        ComparisonQuery,
        MonitoringQuery,
        { provide: VIEW_EXPORTS_LISTER, useExisting: ViewExportsService },
      ],
    };
  }
}
