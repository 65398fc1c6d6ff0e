import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { EventsModule } from '@platform/events';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { liveDatabase } from './database-options';
import { TranscriptionVocabulariesModule } from './transcription-vocabularies/transcription-vocabularies.module';

/**
 * Live streams are not implemented yet: LiveStreamsService has no controller, so the gRPC
 * server still registers it (from the proto) and answers every method UNIMPLEMENTED.
 */
@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformConfigModule.forRoot(config),
        HealthModule,
        DatabaseModule.forService(liveDatabase),
        EventsModule.forService({ schema: liveDatabase.schema }),
        TranscriptionVocabulariesModule,
      ],
    };
  }
}
