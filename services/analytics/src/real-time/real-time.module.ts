import { Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';
import { playbackAuth } from '@platform/proto';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { viewerCountsRoute } from './viewer-counts.route';
import { ViewerCountsQuery } from './viewer-counts.query';
import { ViewerCountsTokens } from './viewer-counts-token';

const PLAYBACK_AUTH_CLIENT = 'analytics:playback-auth-client';

/** Injection token of the `/counts` route (an AnalyticsHostRoute for the collector's server). */
export const VIEWER_COUNTS_ROUTE = Symbol('VIEWER_COUNTS_ROUTE');

/** Real-time engagement counts (`GET /counts` on COLLECTOR_PORT); tokens are verified by playback-auth. */
@Module({
  imports: [
    ClientsModule.registerAsync([
      { name: PLAYBACK_AUTH_CLIENT, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('playback-auth', config) },
    ]),
  ],
  providers: [
    {
      provide: ViewerCountsTokens,
      inject: [PLAYBACK_AUTH_CLIENT],
      useFactory: (client: ClientGrpc) =>
        new ViewerCountsTokens(client.getService<playbackAuth.SigningKeysServiceClient>(playbackAuth.SIGNING_KEYS_SERVICE_NAME)),
    },
    { provide: ViewerCountsQuery, inject: [ANALYTICS_STORE], useFactory: (store: AnalyticsStore) => new ViewerCountsQuery(store) },
    { provide: VIEWER_COUNTS_ROUTE, inject: [ViewerCountsTokens, ViewerCountsQuery], useFactory: viewerCountsRoute },
  ],
  exports: [VIEWER_COUNTS_ROUTE],
})
export class RealTimeModule {}
