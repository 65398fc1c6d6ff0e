import { lengthProblems, passthroughProblems, PHRASE_PATTERN } from '@platform/api-rules';
import { DomainError } from '@platform/errors';
import { live } from '@platform/proto';
import { TranscriptionVocabularyFields } from './transcription-vocabulary.entity';

/** Mux's OpenAPI: `phrases` maxItems 1000, each phrase minLength 1, maxLength 32. */
export const MAX_PHRASES = 1000;
export const MAX_PHRASE_LENGTH = 32;

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
    else problems.push(...lengthProblems(`phrases[${i}]`, phrase, MAX_PHRASE_LENGTH));
  });
  problems.push(...passthroughProblems(input.passthrough));
  if (problems.length > 0) throw DomainError.invalid(...problems);
  return { name: input.name || null, phrases: [...phrases], passthrough: input.passthrough || null };
}
