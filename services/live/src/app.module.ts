import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { EventsModule } from '@platform/events';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';
import { liveDatabase } from './database-options';
import { IngestModule } from './ingest/ingest.module';
import { LiveStreamsModule } from './live-streams/live-streams.module';
import { TranscriptionVocabulariesModule } from './transcription-vocabularies/transcription-vocabularies.module';

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
        LiveStreamsModule,
        IngestModule,
      ],
    };
  }
}
