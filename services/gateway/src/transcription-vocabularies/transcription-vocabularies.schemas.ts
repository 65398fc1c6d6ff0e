import { PHRASE_PATTERN } from '@platform/api-rules';
import { transcriptionVocabularySchema } from '@platform/api-shapes';
import { z } from 'zod';
import { passthroughText, text } from '../validation/text';
import { pagingQuery } from '../validation/paging';
import { dataOf, listOf } from '../wire/wire';

/** Mux's published API schema: 1 to 1000 phrases, each 1 to 32 characters (the live service checks the same). */
export const MAX_PHRASES = 1000;
export const MAX_PHRASE_LENGTH = 32;
export const MAX_NAME_LENGTH = 255;

/** Spec 4.8 create and replace body. */
export const transcriptionVocabularyBody = z
  .object({
    name: text(MAX_NAME_LENGTH).optional(),
    phrases: z
      .array(text(MAX_PHRASE_LENGTH).regex(PHRASE_PATTERN, { error: 'must hold a character other than white space' }))
      .min(1)
      .max(MAX_PHRASES)
      .meta({ description: `Words, phrases or proper names to boost; 1 to ${MAX_PHRASES}, each 1 to ${MAX_PHRASE_LENGTH} characters` }),
    passthrough: passthroughText.optional(),
  })
  .strict();

/** Spec 4.8: page size default 10, at most 10. */
export const transcriptionVocabularyListQuery = pagingQuery({ defaultLimit: 10, maxLimit: 10 });

export const transcriptionVocabularyResponse = dataOf(transcriptionVocabularySchema);
export const transcriptionVocabularyListResponse = listOf(transcriptionVocabularySchema);

export type TranscriptionVocabularyBody = z.output<typeof transcriptionVocabularyBody>;
