import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, EventBus } from '@platform/events';
import { CollectorHandler } from './collector-handler';
import { CollectorServer } from './collector-server';

/** Listens on config.collector.port once the app has booted; drains before the module's providers (the bus) go. */
@Injectable()
export class CollectorListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Collector');
  private readonly server: CollectorServer;
  /** The bound port (config.collector.port, or the free one picked for port 0). */
  port?: number;

  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CollectorHandler) handler: CollectorHandler,
  ) {
    this.server = new CollectorServer(handler);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.port = await this.server.listen(this.config.collector.port, this.config.host);
    this.logger.log(`beacon collector on ${this.config.host}:${this.port}`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.server.close();
  }
}

/**
 * The beacon collector: mux-embed's beacons on COLLECTOR_PORT, expanded, enriched and published to
 * `data.beacons`. Needs PLATFORM_CONFIG and EVENT_BUS from the app (PlatformConfigModule, EventsModule).
 */
@Module({
  providers: [
    {
      provide: CollectorHandler,
      inject: [PLATFORM_CONFIG, EVENT_BUS],
      useFactory: (config: PlatformConfig, bus: EventBus) => new CollectorHandler(bus, config.collector),
    },
    CollectorListener,
  ],
  exports: [CollectorHandler, CollectorListener],
})
export class CollectorModule {}
