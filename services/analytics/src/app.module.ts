import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { StorageModule } from '@platform/storage';
import { AnalyticsBusModule } from './analytics-bus.module';
import { AnalyticsStoreModule } from './clickhouse/analytics-store.module';
import { storeMigrations } from './clickhouse/store-migrations';
import { CollectorModule } from './collector/collector.module';
import type { AnalyticsHostRoute } from './collector/collector-server';
import { DataApiModule } from './data-api/data-api.module';
import { DELIVERY_USAGE_MIGRATIONS } from './delivery-usage/delivery-usage.migrations';
import { DeliveryUsageModule } from './delivery-usage/delivery-usage.module';
import { exportDownloads } from './exports/export-downloads';
import { ViewExportsModule } from './exports/view-exports.module';
import { ViewExportsService } from './exports/view-exports.service';
import { GrpcPlaybackIdResolver } from './playback-ids/grpc-playback-id-resolver';
import { PlaybackIdsModule } from './playback-ids/playback-ids.module';
import { RealTimeModule, VIEWER_COUNTS_ROUTE } from './real-time/real-time.module';
import { VIEW_MIGRATIONS } from './views/views.migrations';
import { ViewsModule } from './views/views.module';

/**
 * Mux Data (spec 001) and delivery usage: the beacon collector, export downloads and viewer
 * counts on COLLECTOR_PORT, the view builder and delivery consumers on the bus, everything stored in
 * ClickHouse (chDB embedded), the Data API and DeliveryUsageService over gRPC.
 */
@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    const viewExports = ViewExportsModule.forRoot();
    return {
      module: AppModule,
      imports: [
        PlatformConfigModule.forRoot(config),
        HealthModule,
        AnalyticsBusModule,
        AnalyticsStoreModule.forRoot([...storeMigrations, ...VIEW_MIGRATIONS, ...DELIVERY_USAGE_MIGRATIONS]),
        StorageModule.forRoot(),
        viewExports,
        PlaybackIdsModule,
        ViewsModule.forRoot({
          ...config.views,
          playbackIdResolver: { inject: [GrpcPlaybackIdResolver], useFactory: (resolver: GrpcPlaybackIdResolver) => resolver },
        }),
        DeliveryUsageModule,
        DataApiModule.forRoot(viewExports),
        CollectorModule.forRoot({
          imports: [viewExports, RealTimeModule],
          routes: {
            inject: [ViewExportsService, VIEWER_COUNTS_ROUTE],
            useFactory: (exports: ViewExportsService, counts: AnalyticsHostRoute) => [{ prefix: '/exports/', handle: exportDownloads(exports) }, counts],
          },
        }),
      ],
    };
  }
}
