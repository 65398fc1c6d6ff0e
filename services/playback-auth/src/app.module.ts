import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { EventsModule } from '@platform/events';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { playbackAuthDatabase } from './database-options';
import { ImageHostModule } from './image-host/image-host.module';
import { PlaybackHostModule } from './playback-host/playback-host.module';
import { PlaybackRestrictionsModule } from './playback-restrictions/playback-restrictions.module';
import { SigningKeysModule } from './signing-keys/signing-keys.module';

@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformConfigModule.forRoot(config),
        HealthModule,
        DatabaseModule.forService(playbackAuthDatabase),
        EventsModule.forService({ schema: playbackAuthDatabase.schema }),
        SigningKeysModule,
        PlaybackRestrictionsModule,
        // before the playback host: its routes are matched first (see ImageHostController)
        ImageHostModule,
        PlaybackHostModule,
      ],
    };
  }
}
