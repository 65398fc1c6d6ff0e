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

/** Event data of video.transcription_vocabulary.*: the vocabulary as the REST API shows it. */
export type TranscriptionVocabularyEventData = {
  id: string;
  name?: string;
  phrases: string[];
  passthrough?: string;
  created_at: string;
  updated_at: string;
};

export function toTranscriptionVocabularyEventData(v: TranscriptionVocabularyEntity): TranscriptionVocabularyEventData {
  const data: TranscriptionVocabularyEventData = {
    id: v.id,
    phrases: [...v.phrases],
    created_at: unixSeconds(v.createdAt),
    updated_at: unixSeconds(v.updatedAt),
  };
  if (v.name !== null) data.name = v.name;
  if (v.passthrough !== null) data.passthrough = v.passthrough;
  return data;
}
