import { characterCount, MAX_PASSTHROUGH_LENGTH } from '@platform/api-rules';
import { z } from 'zod';

/**
 * A string of at most `max` characters counted as code points, which is how the OpenAPI
 * document's maxLength and Postgres count them (zod's own `.max` counts UTF-16 units).
 */
export function text(max: number) {
  return z
    .string()
    .refine((value) => characterCount(value) <= max, { error: `must be at most ${max} characters` })
    .meta({ maxLength: max });
}

/** Every resource's `passthrough`: free text of the caller's, at most MAX_PASSTHROUGH_LENGTH characters. */
export const passthroughText = text(MAX_PASSTHROUGH_LENGTH);
