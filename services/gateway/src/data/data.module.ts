import { Module } from '@nestjs/common';
import { analytics } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';
import { DimensionsController } from './dimensions.controller';
import { ErrorsController } from './errors.controller';
import { ExportsController } from './exports.controller';
import { MetricsController } from './metrics.controller';
import { MonitoringController } from './monitoring.controller';
import { ANALYTICS_CLIENT, VideoViewsController } from './video-views.controller';

/** The Data API (spec 001) routes served by the analytics service; `data:read` (permissions.ts). */
@Module({
  controllers: [VideoViewsController, ErrorsController, DimensionsController, ExportsController, MetricsController, MonitoringController],
  providers: [serviceClientProvider(ANALYTICS_CLIENT, 'analytics', analytics.ANALYTICS_SERVICE_NAME)],
})
export class DataModule {}
