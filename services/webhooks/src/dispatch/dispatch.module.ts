import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, getEventBus } from '@platform/events';
import { OutboundGuard } from '@platform/outbound';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DeliveryDispatcher, DispatcherSettings } from './delivery-dispatcher';
import { EnvironmentRepository } from './environment.repository';
import { EventRecorder } from './event-recorder';
import { WebhookPoster } from './webhook-poster';
import { webhookUrlRefusal } from './webhook-url';

/** Objects whose webhooks are in flight at once, per replica. */
const CONCURRENCY = 4;
/** Safety poll: other replicas' new deliveries and leases of dead dispatchers are seen this late at most. */
const POLL_MS = 1000;
/** Beyond the POST timeout, before another dispatcher may take a delivery over. */
const LEASE_MARGIN_MS = 30_000;

export function dispatcherSettings(config: PlatformConfig): DispatcherSettings {
  const { timeoutMs, maxAttempts, retryBaseMs, retryMaxMs, orderHoldMs } = config.webhookDelivery;
  return {
    secret: config.webhook?.secret,
    maxAttempts,
    retryBaseMs,
    retryMaxMs,
    concurrency: CONCURRENCY,
    pollMs: POLL_MS,
    leaseMs: timeoutMs + LEASE_MARGIN_MS,
    orderHoldMs,
  };
}

@Injectable()
class DispatcherLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(DeliveryDispatcher) private readonly dispatcher: DeliveryDispatcher,
    @Inject(OutboundGuard) private readonly guard: OutboundGuard,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  onApplicationBootstrap(): void {
    const refusal = webhookUrlRefusal(this.config.webhook?.url, this.guard);
    if (refusal) new Logger('DispatchModule').warn(refusal);
    this.dispatcher.start(); // does nothing without WEBHOOK_URL
  }

  // before the DataSource closes (onApplicationShutdown), so in-flight attempts get recorded
  async onModuleDestroy(): Promise<void> {
    await this.dispatcher.stop();
  }
}

@Module({
  imports: [DeliveriesModule],
  providers: [
    { provide: EVENT_BUS, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => getEventBus(config) },
    { provide: OutboundGuard, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => new OutboundGuard(config.outboundAllow) },
    {
      provide: DeliveryDispatcher,
      inject: [DeliveryRepository, OutboundGuard, PLATFORM_CONFIG],
      useFactory: (deliveries: DeliveryRepository, guard: OutboundGuard, config: PlatformConfig) =>
        new DeliveryDispatcher(deliveries, new WebhookPoster(config.webhookDelivery.timeoutMs, guard), dispatcherSettings(config)),
    },
    EnvironmentRepository,
    EventRecorder,
    DispatcherLifecycle,
  ],
})
export class DispatchModule {}
