/** A BCP 47 language tag as the API takes it: a 2–3 letter language, then subtags (`en`, `es-MX`, `zh-Hant-TW`). */
export const LANGUAGE_CODE_PATTERN = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

export function isLanguageCode(value: string): boolean {
  return LANGUAGE_CODE_PATTERN.test(value);
}
