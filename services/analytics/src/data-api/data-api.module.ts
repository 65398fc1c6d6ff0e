import { Module } from '@nestjs/common';
import { AnalyticsGrpcController } from './analytics.grpc-controller';
import { DimensionValuesQuery } from './dimension-values.query';
import { ErrorsQuery } from './errors.query';
import { VideoViewsQuery } from './video-views.query';

/** The Data API's reads over ClickHouse (needs ANALYTICS_STORE and VIEW_EXPORTS_LISTER from the app). */
@Module({
  controllers: [AnalyticsGrpcController],
  providers: [VideoViewsQuery, ErrorsQuery, DimensionValuesQuery],
})
export class DataApiModule {}
