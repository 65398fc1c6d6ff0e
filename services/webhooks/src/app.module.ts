import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { webhooksDatabase } from './database-options';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { DispatchModule } from './dispatch/dispatch.module';

/**
 * No EventsModule: the dispatcher publishes nothing, so it needs no outbox; it only
 * subscribes, through the process's bus (DispatchModule).
 */
@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformConfigModule.forRoot(config), HealthModule, DatabaseModule.forService(webhooksDatabase), DeliveriesModule, DispatchModule],
    };
  }
}
