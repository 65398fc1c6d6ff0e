import { Module } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, getEventBus } from '@platform/events';
import { DeliveryMeter } from './delivery-meter';
import { DeliveryReporter } from './delivery-reporter';
import { SegmentCatalog } from './segment-catalog';

/**
 * Delivery usage at the source: what the playback host serves is counted (DeliveryMeter) and
 * reported on the bus (DeliveryReporter). The bus is the process's own, as EventsModule's is; taken
 * here directly so the playback host's HTTP tests, which have no EventsModule, run it too.
 */
@Module({
  providers: [
    { provide: EVENT_BUS, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => getEventBus(config) },
    SegmentCatalog,
    DeliveryMeter,
    DeliveryReporter,
  ],
  exports: [SegmentCatalog, DeliveryMeter, DeliveryReporter],
})
export class DeliveryMeteringModule {}
