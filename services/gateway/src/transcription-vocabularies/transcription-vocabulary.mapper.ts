import { live } from '@platform/proto';
import { unixSecondsString } from '../wire/wire';
import { TranscriptionVocabularyBody, TranscriptionVocabularyResponseBody } from './transcription-vocabularies.schemas';

export function toTranscriptionVocabularyInput(id: string, body: TranscriptionVocabularyBody): live.TranscriptionVocabularyInput {
  return { id, name: body.name, phrases: body.phrases, passthrough: body.passthrough };
}

export function toTranscriptionVocabulary(v: live.TranscriptionVocabulary): TranscriptionVocabularyResponseBody {
  return {
    id: v.id,
    ...(v.name !== undefined ? { name: v.name } : {}),
    phrases: [...v.phrases],
    ...(v.passthrough !== undefined ? { passthrough: v.passthrough } : {}),
    created_at: unixSecondsString(v.created_at),
    updated_at: unixSecondsString(v.updated_at),
  };
}
