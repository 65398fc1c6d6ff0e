import { unixSeconds } from '@platform/ids';
import { live } from '@platform/proto';
import { TranscriptionVocabularyEntity } from './transcription-vocabulary.entity';

export function toTranscriptionVocabularyMessage(v: TranscriptionVocabularyEntity): live.TranscriptionVocabulary {
  const message: live.TranscriptionVocabulary = {
    id: v.id,
    phrases: [...v.phrases],
    created_at: Number(unixSeconds(v.createdAt)),
    updated_at: Number(unixSeconds(v.updatedAt)),
  };
  if (v.name !== null) message.name = v.name;
  if (v.passthrough !== null) message.passthrough = v.passthrough;
  return message;
}
