import { Global, Module } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, getEventBus } from '@platform/events';

/**
 * The process's event bus for the analytics service's consumers (beacons, deliveries, asset
 * events) and its one producer without state (the collector). The service keeps no Postgres
 * state, so it has no outbox: its consumers are idempotent on their own keys in ClickHouse.
 */
@Global()
@Module({
  providers: [{ provide: EVENT_BUS, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => getEventBus(config) }],
  exports: [EVENT_BUS],
})
export class AnalyticsBusModule {}
