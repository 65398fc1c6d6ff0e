import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { StorageModule } from '@platform/storage';
import { transcoderDatabase } from './database-options';
import { JobsModule } from './jobs/jobs.module';
import { TasksModule } from './tasks/tasks.module';
import { WorkerModule } from './worker/worker.module';

@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformConfigModule.forRoot(config),
        HealthModule,
        DatabaseModule.forService(transcoderDatabase),
        StorageModule.forRoot(),
        JobsModule,
        WorkerModule,
        TasksModule,
      ],
    };
  }
}
