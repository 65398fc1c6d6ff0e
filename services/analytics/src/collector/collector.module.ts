import {
  DynamicModule,
  FactoryProvider,
  Inject,
  Injectable,
  Logger,
  Module,
  ModuleMetadata,
  OnApplicationBootstrap,
  OnModuleDestroy,
  Optional,
  Provider,
} from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, EventBus } from '@platform/events';
import { CollectorHandler } from './collector-handler';
import { AnalyticsHostRoute, CollectorServer } from './collector-server';

/** Optional injection token: more routes of the analytics host (`AnalyticsHostRoute[]`, the export downloads). */
export const ANALYTICS_HOST_ROUTES = Symbol('ANALYTICS_HOST_ROUTES');

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
    @Optional() @Inject(ANALYTICS_HOST_ROUTES) routes?: AnalyticsHostRoute[],
  ) {
    this.server = new CollectorServer(handler, routes ?? []);
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
const COLLECTOR_PROVIDERS: Provider[] = [
  {
    provide: CollectorHandler,
    inject: [PLATFORM_CONFIG, EVENT_BUS],
    useFactory: (config: PlatformConfig, bus: EventBus) => new CollectorHandler(bus, config.collector),
  },
  CollectorListener,
];

export interface CollectorModuleOptions {
  /** Modules the routes' factory needs. */
  imports?: ModuleMetadata['imports'];
  /** More routes of the analytics host (ANALYTICS_HOST_ROUTES), matched by prefix before the beacons. */
  routes?: Omit<FactoryProvider<AnalyticsHostRoute[]>, 'provide'>;
}

@Module({ providers: COLLECTOR_PROVIDERS, exports: [CollectorHandler, CollectorListener] })
export class CollectorModule {
  /** The collector with the analytics host's other routes (the export downloads). */
  static forRoot(options: CollectorModuleOptions = {}): DynamicModule {
    const routes: Provider[] = options.routes ? [{ provide: ANALYTICS_HOST_ROUTES, ...options.routes }] : [];
    return {
      module: CollectorModule,
      imports: options.imports ?? [],
      providers: [...COLLECTOR_PROVIDERS, ...routes],
      exports: [CollectorHandler, CollectorListener],
    };
  }
}
