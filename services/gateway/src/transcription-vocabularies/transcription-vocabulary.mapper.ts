import { live } from '@platform/proto';
import { TranscriptionVocabularyBody } from './transcription-vocabularies.schemas';

export function toTranscriptionVocabularyInput(id: string, body: TranscriptionVocabularyBody): live.TranscriptionVocabularyInput {
  return { id, name: body.name, phrases: body.phrases, passthrough: body.passthrough };
}
