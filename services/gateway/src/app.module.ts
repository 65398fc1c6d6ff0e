import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { PlatformConfigModule } from '@platform/grpc';
import { AccessGuard } from './access-tokens/access.guard';
import { AccessTokensModule } from './access-tokens/access-tokens.module';
import { AssetsModule } from './assets/assets.module';
import { gatewayDatabase } from './database-options';
import { DeliveryUsageModule } from './delivery-usage/delivery-usage.module';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { GrpcClientsModule } from './grpc-clients/grpc-clients.module';
import { HealthzModule } from './health/healthz.module';
import { JsonBodyGuard } from './http/json-body.guard';
import { RefuseNulMiddleware } from './http/refuse-nul.middleware';
import { OpenApiModule } from './openapi/openapi.module';
import { PlaybackIdsModule } from './playback-ids/playback-ids.module';
import { PlaybackRestrictionsModule } from './playback-restrictions/playback-restrictions.module';
import { SigningKeysModule } from './signing-keys/signing-keys.module';
import { TranscriptionVocabulariesModule } from './transcription-vocabularies/transcription-vocabularies.module';
import { SpacesModule } from './spaces/spaces.module';
import { WebInputsModule } from './web-inputs/web-inputs.module';
import { UploadsModule } from './uploads/uploads.module';
import { LiveStreamsModule } from './live-streams/live-streams.module';
import { DataModule } from './data/data.module';

@Module({})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RefuseNulMiddleware).forRoutes('*');
  }

  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformConfigModule.forRoot(config),
        DatabaseModule.forService(gatewayDatabase),
        GrpcClientsModule.forRoot(config),
        AccessTokensModule,
        HealthzModule,
        OpenApiModule,
        SigningKeysModule,
        PlaybackRestrictionsModule,
        TranscriptionVocabulariesModule,
        WebInputsModule,
        AssetsModule,
        PlaybackIdsModule,
        UploadsModule,
        LiveStreamsModule,
        DeliveryUsageModule,
        DataModule,
        SpacesModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        // Global guards run in this order: credentials, rate limit and permission first, then
        // the body is read (never for a caller the first refused).
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_GUARD, useClass: JsonBodyGuard },
      ],
    };
  }
}
