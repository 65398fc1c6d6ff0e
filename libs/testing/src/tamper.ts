/**
 * `text` with one character changed to another: a signature or token a test tampers with. Overwriting
 * with a fixed character instead leaves the text as it was whenever it already held that character.
 * `index` counts from the end when negative.
 */
export function tamperedAt(text: string, index: number): string {
  const at = index < 0 ? text.length + index : index;
  if (at < 0 || at >= text.length) throw new RangeError(`no character ${index} in a text of ${text.length}`);
  const other = text[at] === 'A' ? 'B' : 'A';
  return `${text.slice(0, at)}${other}${text.slice(at + 1)}`;
}
