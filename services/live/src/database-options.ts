import { ServiceDatabaseOptions } from '@platform/database';
import { outboxMigrations } from '@platform/events';
import { CreateTranscriptionVocabularies1732200000100 } from './migrations/1732200000100-create-transcription-vocabularies';
import { SCHEMA } from './schema';
import { TranscriptionVocabularyEntity } from './transcription-vocabularies/transcription-vocabulary.entity';

export const liveDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [TranscriptionVocabularyEntity],
  migrations: [CreateTranscriptionVocabularies1732200000100, ...outboxMigrations(SCHEMA)],
};
