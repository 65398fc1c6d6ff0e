import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DataSource } from 'typeorm';
import { openDatabase, ServiceDatabaseOptions } from './open-database';

@Injectable()
class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Gives a service its migrated DataSource (inject `DataSource`). */
@Module({})
export class DatabaseModule {
  static forService(options: ServiceDatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          inject: [PLATFORM_CONFIG],
          useFactory: (config: PlatformConfig) => openDatabase(config, options),
        },
        DataSourceCloser,
      ],
      exports: [DataSource],
    };
  }
}
