import { LiveStreamHandover1732600000500 } from './migrations/1732600000500-live-stream-handover';
import { ServiceDatabaseOptions } from '@platform/database';
import { outboxMigrations } from '@platform/events';
import { CreateTranscriptionVocabularies1732200000100 } from './migrations/1732200000100-create-transcription-vocabularies';
import { LivePlaybackIdEntity, LiveStreamEntity, SimulcastTargetEntity } from './live-streams/live-stream.entity';
import { CreateLiveStreams1732600000100 } from './migrations/1732600000100-create-live-streams';
import { LiveStreamComplete1732600000200 } from './migrations/1732600000200-live-stream-complete';
import { LiveStreamIngestLease1732600000300 } from './migrations/1732600000300-live-stream-ingest-lease';
import { FinalSubtitlePasses1732600000400 } from './migrations/1732600000400-final-subtitle-passes';
import { SCHEMA } from './schema';
import { TranscriptionVocabularyEntity } from './transcription-vocabularies/transcription-vocabulary.entity';

export const liveDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [TranscriptionVocabularyEntity, LiveStreamEntity, LivePlaybackIdEntity, SimulcastTargetEntity],
  migrations: [
    CreateTranscriptionVocabularies1732200000100,
    CreateLiveStreams1732600000100,
    LiveStreamComplete1732600000200,
    LiveStreamIngestLease1732600000300,
    FinalSubtitlePasses1732600000400,
    LiveStreamHandover1732600000500,
    ...outboxMigrations(SCHEMA),
  ],
};
