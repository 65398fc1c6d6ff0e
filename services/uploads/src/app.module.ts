import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { EventsModule } from '@platform/events';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { StorageModule } from '@platform/storage';
import { CompletionModule } from './completion/completion.module';
import { uploadsDatabase } from './database-options';
import { UploadHostModule } from './upload-host/upload-host.module';
import { UploadsModule } from './uploads/uploads.module';

@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformConfigModule.forRoot(config),
        HealthModule,
        DatabaseModule.forService(uploadsDatabase),
        EventsModule.forService({ schema: uploadsDatabase.schema }),
        StorageModule.forRoot(),
        UploadsModule,
        CompletionModule,
        UploadHostModule,
      ],
    };
  }
}
