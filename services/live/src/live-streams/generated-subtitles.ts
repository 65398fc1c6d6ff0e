import { assets, live } from '@platform/proto';

/** Name of a generated subtitle track when the stream's entry has none (only English is recognized). */
export const GENERATED_SUBTITLES_NAME = 'English (generated)';

/** A stream's `generated_subtitles` entry (at most one, spec 8) with its defaults applied. */
export interface GeneratedSubtitles {
  name: string;
  languageCode: string;
  passthrough?: string;
}

export function generatedSubtitlesOf(entries: readonly live.GeneratedSubtitle[]): GeneratedSubtitles | undefined {
  const entry = entries[0];
  if (!entry) return undefined;
  return {
    name: entry.name || GENERATED_SUBTITLES_NAME,
    languageCode: entry.language_code || 'en',
    ...(entry.passthrough ? { passthrough: entry.passthrough } : {}),
  };
}

/** The statuses of a recording's two generated tracks (spec 3: live ready while live, final ready once the stream ends). */
export interface GeneratedTrackStatuses {
  live: 'ready' | 'errored';
  final: 'preparing' | 'errored';
}

/**
 * The text tracks spec 2.3 gives every asset of a stream with generated subtitles: `generated_live`
 * (what viewers saw while live) and `generated_live_final` (the recording transcribed again once it ends).
 */
export function generatedTextTracks(subtitles: GeneratedSubtitles, statuses: GeneratedTrackStatuses): assets.Track[] {
  const track = (source: string, status: string): assets.Track => ({
    id: '',
    type: 'text',
    text_type: 'subtitles',
    text_source: source,
    language_code: subtitles.languageCode,
    name: subtitles.name,
    status,
    ...(subtitles.passthrough ? { passthrough: subtitles.passthrough } : {}),
  });
  return [track('generated_live', statuses.live), track('generated_live_final', statuses.final)];
}
