/**
 * Length in characters (Unicode code points), as JSON Schema's maxLength and Postgres count them:
 * an emoji is one character, not the two UTF-16 units of String.length.
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** A transcription vocabulary phrase holds at least one character other than NUL and ASCII white space. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what the pattern refuses
export const PHRASE_PATTERN = /^[^\u0000]*[^\u0000\t\n\v\f\r ][^\u0000]*$/;

/** Spec 1 (wire convention 8): every passthrough, of every resource, holds at most this many characters. */
export const MAX_PASSTHROUGH_LENGTH = 255;

/** The longest URL the API takes (a web input's page, a broadcast's background, a direct upload's cors_origin). */
export const MAX_URL_LENGTH = 2048;

/**
 * `<field>: must be at most <max> characters` when `value` has more than `max` characters (code
 * points, see characterCount), else nothing: the problem as the services name it in INVALID_PARAMETERS.
 */
export function lengthProblems(field: string, value: string | undefined, max: number): string[] {
  return value !== undefined && characterCount(value) > max ? [`${field}: must be at most ${max} characters`] : [];
}

/** A passthrough longer than MAX_PASSTHROUGH_LENGTH, named `field` (`broadcasts[0].passthrough`, …); an absent one is fine. */
export function passthroughProblems(value: string | undefined, field = 'passthrough'): string[] {
  return lengthProblems(field, value, MAX_PASSTHROUGH_LENGTH);
}
