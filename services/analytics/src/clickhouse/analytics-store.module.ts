import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { ANALYTICS_STORE, AnalyticsStore, StoreMigration } from './analytics-store.port';
import { createAnalyticsStore } from './create-analytics-store';
import { runStoreMigrations } from './store-migrations';

/**
 * Gives the service's modules the AnalyticsStore chosen by the config (needs PlatformConfigModule),
 * with `migrations` applied before anything can use it; closes it on shutdown.
 */
@Module({})
export class AnalyticsStoreModule implements OnApplicationShutdown {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  static forRoot(migrations: readonly StoreMigration[] = []): DynamicModule {
    return {
      module: AnalyticsStoreModule,
      global: true,
      providers: [
        {
          provide: ANALYTICS_STORE,
          inject: [PLATFORM_CONFIG],
          useFactory: async (config: PlatformConfig): Promise<AnalyticsStore> => {
            const store = await createAnalyticsStore(config);
            try {
              await runStoreMigrations(store, migrations);
            } catch (err) {
              await store.close();
              throw err;
            }
            return store;
          },
        },
      ],
      exports: [ANALYTICS_STORE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
