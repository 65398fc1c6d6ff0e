import { newId } from '@platform/ids';
import { assets } from '@platform/proto';
import type { StoredInput } from '../assets/asset.entity';
import { languageName, uniqueName } from '../assets/asset-inputs';

/**
 * What a track this service made on request is made from: an uploaded file (a text or audio input, POST
 * tracks) or an audio track heard (generated subtitles: `primary`, or an alternate audio track's id).
 * Never shown in the API.
 */
export interface TrackSource {
  url?: string;
  audio?: string;
}

/**
 * A track as the asset row keeps it. Tracks the probe found (video, the primary audio, a live recording's
 * text tracks) have no `source`; tracks made on request (text and alternate audio tracks, generated
 * subtitles) have one, and keep their place and id whatever the probe reports.
 */
export interface StoredTrack extends assets.Track {
  source?: TrackSource;
}

export const isOwnTrack = (t: StoredTrack): boolean => t.source !== undefined;
export const isPrimaryAudio = (t: assets.Track): boolean => t.type === 'audio' && t.primary === true;

/** The track as the proto (and so the API) carries it: its source left out. */
export function publicTrack(t: StoredTrack): assets.Track {
  const { source: _source, ...track } = t;
  return structuredClone(track);
}

/** Names of the tracks of a group (`text`, `audio`), a deleted track's no longer taken. */
export function namesOf(tracks: readonly assets.Track[], type: 'text' | 'audio'): Set<string> {
  return new Set(tracks.flatMap((t) => (t.type === type && t.name !== undefined ? [t.name] : [])));
}

/** A text (`uploaded`) or alternate audio track to be made from a file, `preparing`. */
export function uploadedTrack(input: StoredInput & { url: string; type: 'text' | 'audio'; language_code: string; name: string }): StoredTrack {
  const track: StoredTrack = {
    id: newId(),
    type: input.type,
    language_code: input.language_code,
    name: input.name,
    status: 'preparing',
    source: { url: input.url },
  };
  if (input.type === 'text') {
    track.text_type = input.text_type ?? 'subtitles';
    track.text_source = 'uploaded';
    if (input.closed_captions !== undefined) track.closed_captions = input.closed_captions;
  } else {
    track.primary = false;
  }
  if (input.passthrough !== undefined) track.passthrough = input.passthrough;
  return track;
}

/** The default name of generated subtitles: the language's, as Mux and the live service name them (`English (generated)`). */
export function generatedName(languageCode: string): string {
  return `${languageCode === 'auto' ? 'Auto-detected language' : languageName(languageCode)} (generated)`;
}

/** Generated subtitles (`generated_vod`) of an audio track (`primary` before the probe has named it), `preparing`; the name unique among `taken`. */
export function generatedTrack(settings: assets.GeneratedSubtitleSettings, audio: string, taken: Set<string>): StoredTrack {
  const languageCode = settings.language_code ?? 'en';
  const name = settings.name ?? uniqueName(generatedName(languageCode), taken);
  taken.add(name);
  return {
    id: newId(),
    type: 'text',
    text_type: 'subtitles',
    text_source: 'generated_vod',
    language_code: languageCode,
    name,
    status: 'preparing',
    ...(settings.passthrough !== undefined ? { passthrough: settings.passthrough } : {}),
    source: { audio },
  };
}

/**
 * The tracks of a new asset's inputs: each text or audio input (their names already filled in and
 * unique), then the main input's generated subtitles, of its primary audio.
 */
export function inputTracks(inputs: readonly StoredInput[], roles: readonly string[]): StoredTrack[] {
  const tracks: StoredTrack[] = [];
  inputs.forEach((input, i) => {
    const role = roles[i];
    if ((role === 'text' || role === 'audio') && input.url && input.language_code && input.name) {
      tracks.push(uploadedTrack({ ...input, url: input.url, type: role, language_code: input.language_code, name: input.name }));
    }
  });
  const taken = namesOf(tracks, 'text');
  for (const settings of inputs[0]?.generated_subtitles ?? []) tracks.push(generatedTrack(settings, 'primary', taken));
  return tracks;
}

/** The primary audio track as the main input names it (`name`, else its language's name; `language_code`). */
export function namedPrimaryAudio(track: assets.Track, main: StoredInput | undefined): assets.Track {
  if (!isPrimaryAudio(track) || !main) return track;
  const named = { ...track };
  if (main.language_code !== undefined) named.language_code = main.language_code;
  const name = main.name ?? (main.language_code !== undefined ? languageName(main.language_code) : undefined);
  if (name !== undefined) named.name = name;
  return named;
}

/**
 * The renditions the playback host adds to the master playlist: ready uploaded and generated text
 * tracks, ready alternate audio tracks, and the primary audio track when an alternate one is ready.
 */
export function playbackRenditions(tracks: readonly StoredTrack[]): assets.Track[] {
  const ready = tracks.filter((t) => isOwnTrack(t) && t.status === 'ready' && (t.type === 'text' || t.type === 'audio'));
  const primary = ready.some((t) => t.type === 'audio') ? tracks.filter(isPrimaryAudio).slice(0, 1) : [];
  return [...primary, ...ready].map(publicTrack);
}
