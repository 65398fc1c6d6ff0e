import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { EventsModule } from '@platform/events';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { StorageModule } from '@platform/storage';
import { AssetsModule } from './assets/assets.module';
import { assetsDatabase } from './database-options';
import { AssetProcessingModule } from './processing/asset-processing.module';
import { StaticRenditionsModule } from './static-renditions/static-renditions.module';
import { TestAssetsModule } from './test-assets/test-assets.module';

@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformConfigModule.forRoot(config),
        HealthModule,
        DatabaseModule.forService(assetsDatabase),
        EventsModule.forService({ schema: assetsDatabase.schema }),
        StorageModule.forRoot(),
        AssetsModule,
        AssetProcessingModule,
        TestAssetsModule,
        StaticRenditionsModule,
      ],
    };
  }
}
