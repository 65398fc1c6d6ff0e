import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { EventsModule } from '@platform/events';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { webInputsDatabase } from './database-options';
import { WebInputsModule } from './web-inputs/web-inputs.module';

@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformConfigModule.forRoot(config),
        HealthModule,
        DatabaseModule.forService(webInputsDatabase),
        EventsModule.forService({ schema: webInputsDatabase.schema }),
        WebInputsModule,
      ],
    };
  }
}
