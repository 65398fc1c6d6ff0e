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
