import { characterCount, PHRASE_PATTERN } from '@platform/api-rules';
import { DomainError } from '@platform/errors';
import { live } from '@platform/proto';
import { TranscriptionVocabularyFields } from './transcription-vocabulary.entity';

/** Mux's OpenAPI: `phrases` maxItems 1000, each phrase minLength 1, maxLength 32. */
export const MAX_PHRASES = 1000;
export const MAX_PHRASE_LENGTH = 32;
/** Spec 1 (wire convention 8) and 8: every passthrough. */
export const MAX_PASSTHROUGH_LENGTH = 255;

type Input = Pick<live.TranscriptionVocabularyInput, 'name' | 'phrases' | 'passthrough'>;

/**
 * The fields to store from a create or PUT body, which replaces all of them: an absent or
 * empty name or passthrough is stored as none. Throws INVALID_PARAMETERS naming every
 * problem (bad phrases by their index in the request).
 */
export function validVocabularyFields(input: Input): TranscriptionVocabularyFields {
  const phrases = input.phrases ?? [];
  const problems: string[] = [];
  if (phrases.length === 0) problems.push('phrases: must be a non-empty array of phrases');
  if (phrases.length > MAX_PHRASES) problems.push(`phrases: at most ${MAX_PHRASES} phrases are allowed, got ${phrases.length}`);
  phrases.forEach((phrase, i) => {
    if (typeof phrase !== 'string' || !PHRASE_PATTERN.test(phrase)) problems.push(`phrases[${i}]: must be a non-empty string`);
    else if (characterCount(phrase) > MAX_PHRASE_LENGTH) problems.push(`phrases[${i}]: must be at most ${MAX_PHRASE_LENGTH} characters`);
  });
  if (input.passthrough !== undefined && characterCount(input.passthrough) > MAX_PASSTHROUGH_LENGTH) {
    problems.push(`passthrough: must be at most ${MAX_PASSTHROUGH_LENGTH} characters`);
  }
  if (problems.length > 0) throw DomainError.invalid(...problems);
  return { name: input.name || null, phrases: [...phrases], passthrough: input.passthrough || null };
}
