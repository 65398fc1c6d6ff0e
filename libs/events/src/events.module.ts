import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DataSource } from 'typeorm';
import { getEventBus } from './event-bus.factory';
import { EventBus } from './event-bus.port';
import { OutboxRelay } from './outbox-relay';
import { UnitOfWork } from './unit-of-work';

/** Injection token of the process's EventBus (for consumers' subscriptions). */
export const EVENT_BUS = Symbol('EVENT_BUS');

@Injectable()
class RelayLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(OutboxRelay) private readonly relay: OutboxRelay) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }
}

/** Gives a service `UnitOfWork` (state + events in one transaction) and runs its outbox relay. */
@Module({})
export class EventsModule {
  static forService(options: { schema: string }): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      providers: [
        { provide: EVENT_BUS, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => getEventBus(config) },
        {
          provide: OutboxRelay,
          inject: [DataSource, EVENT_BUS, PLATFORM_CONFIG],
          useFactory: (dataSource: DataSource, bus: EventBus, config: PlatformConfig) => new OutboxRelay(dataSource, options.schema, bus, config.outboxPollMs),
        },
        {
          provide: UnitOfWork,
          inject: [DataSource, OutboxRelay],
          useFactory: (dataSource: DataSource, relay: OutboxRelay) => new UnitOfWork(dataSource, options.schema, relay),
        },
        RelayLifecycle,
      ],
      exports: [UnitOfWork, EVENT_BUS],
    };
  }
}
