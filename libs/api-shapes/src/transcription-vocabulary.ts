import { live } from '@platform/proto';
import { z } from 'zod';
import { unixSecondsSchema, unixSecondsString } from './wire';

/** Spec 4.8. */
export const transcriptionVocabularySchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  phrases: z.array(z.string()),
  passthrough: z.string().optional(),
  created_at: unixSecondsSchema,
  updated_at: unixSecondsSchema,
});

export type TranscriptionVocabularyResponseBody = z.infer<typeof transcriptionVocabularySchema>;

/** The API body and the data of `video.transcription_vocabulary.*`. */
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
