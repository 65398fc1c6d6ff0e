/** The languages generated subtitles can be made in here: PocketSphinx's own model (its wheel carries en-us). */
export const SPEECH_MODELS: Readonly<Record<string, string>> = { en: 'en-us' };

/** The model for a generated-subtitles language, or undefined when none is installed. `en-US` uses `en`'s. */
export function speechModelFor(languageCode: string): string | undefined {
  return SPEECH_MODELS[languageCode.toLowerCase().split('-')[0]];
}

/** Why subtitles cannot be generated in a language here (the track's `errored` reason). */
export function missingSpeechModel(languageCode: string, languageName: string): string {
  if (languageCode === 'auto') {
    return 'Automatic language detection needs a language identification model, and none is installed here; give language_code "en" (PocketSphinx en-us is the only speech model installed).';
  }
  return `No speech recognition model for ${languageName} (${languageCode}) is installed here: PocketSphinx en-us is the only one, so subtitles can be generated in English (en) only.`;
}
