import { characterCount, isLanguageCode, passthroughProblems } from '@platform/api-rules';
import { DomainError } from '@platform/errors';
import { assets } from '@platform/proto';
import { AssetEntity } from '../assets/asset.entity';
import { GENERATED_SUBTITLE_LANGUAGES, isHttpUrl, languageName, NAME_MAX, uniqueName } from '../assets/asset-inputs';
import { generatedTrack, isPrimaryAudio, namesOf, StoredTrack, uploadedTrack } from './stored-track';

/** Tracks of every kind an asset may have; past this, adding one is refused. */
export const MAX_TRACKS = 64;
/** generate-subtitles is open this long after the asset's creation (Mux's rule). */
export const GENERATE_SUBTITLES_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

const oneOf = (values: readonly string[]) => `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/** Tracks are added to an asset that plays (Mux: "Assets must be in the ready state before tracks can be added"). */
function checkReady(asset: AssetEntity, what: string): void {
  if (asset.status !== 'ready') throw DomainError.precondition(`The asset is ${asset.status}: ${what} only once it is ready`);
  if (asset.tracks.length >= MAX_TRACKS) throw DomainError.precondition(`The asset has ${asset.tracks.length} tracks, the most it may have`);
}

function checkName(name: string | undefined, at: string, taken: ReadonlySet<string>, group: string, invalid: string[]): void {
  if (name === undefined) return;
  if (name.trim() === '' || characterCount(name) > NAME_MAX) invalid.push(`${at}: must be 1 to ${NAME_MAX} characters`);
  else if (taken.has(name)) invalid.push(`${at}: ${JSON.stringify(name)} is already the name of another ${group} track of the asset`);
}

/**
 * POST …/tracks (spec 4.2): a text track (`text_type` subtitles, the default) or an alternate audio
 * track from an http(s) URL, with a BCP 47 `language_code`; `closed_captions` for text tracks only; a
 * name unique in its group, else the language's name (numbered when taken). The new track, `preparing`.
 */
export function newTrack(r: assets.CreateTrackRequest, asset: AssetEntity): StoredTrack {
  const invalid: string[] = [];
  const type = r.type;
  if (type !== 'text' && type !== 'audio') invalid.push(`type: ${oneOf(['text', 'audio'])}`);
  if (!r.url) invalid.push(`url: is required (the URL of ${type === 'audio' ? 'an audio file' : 'a SubRip (SRT) or WebVTT file'})`);
  else if (!isHttpUrl(r.url)) invalid.push('url: must be an http or https URL');
  if (!r.language_code) invalid.push('language_code: is required');
  else if (!isLanguageCode(r.language_code)) invalid.push('language_code: must be a BCP 47 language code such as "en" or "es-MX"');
  if (type === 'text' && r.text_type !== undefined && r.text_type !== 'subtitles') invalid.push(`text_type: ${oneOf(['subtitles'])}`);
  if (type === 'audio') {
    if (r.text_type !== undefined) invalid.push('text_type: only for text tracks');
    if (r.closed_captions !== undefined) invalid.push('closed_captions: only for text tracks');
  }
  const group = type === 'audio' ? 'audio' : 'text';
  const taken = namesOf(asset.tracks, group);
  checkName(r.name, 'name', taken, group, invalid);
  invalid.push(...passthroughProblems(r.passthrough));
  if (invalid.length > 0) throw DomainError.invalid(...invalid);
  checkReady(asset, 'tracks can be added');
  if (type === 'audio' && !asset.tracks.some((t) => t.type === 'video'))
    throw DomainError.invalid('type: an alternate audio track goes with a video, and this asset has no video track');
  return uploadedTrack({
    url: r.url,
    type: type as 'text' | 'audio',
    language_code: r.language_code,
    name: r.name ?? uniqueName(languageName(r.language_code), taken),
    ...(r.text_type !== undefined ? { text_type: r.text_type } : {}),
    ...(r.closed_captions !== undefined ? { closed_captions: r.closed_captions } : {}),
    ...(r.passthrough !== undefined ? { passthrough: r.passthrough } : {}),
  });
}

/** DELETE …/tracks/{id}: only text tracks (spec 4.2); video and audio tracks are refused, saying why. */
export function checkDeletable(track: StoredTrack | undefined): StoredTrack {
  if (!track) throw DomainError.notFound('Track');
  if (track.type === 'text') return track;
  if (isPrimaryAudio(track))
    throw DomainError.invalid(`track ${track.id}: the primary audio track (the main input's own audio) cannot be deleted; only text tracks can`);
  throw DomainError.invalid(`track ${track.id}: ${track.type} tracks cannot be deleted; only text tracks can`);
}

/**
 * POST …/tracks/{audio track id}/generate-subtitles: of an audio track that plays (the primary, or a
 * ready alternate), within 7 days of the asset's creation; each entry a language of spec 2.2 (`en`
 * default), a name unique among the text tracks. The new `generated_vod` tracks, `preparing`.
 */
export function newGeneratedTracks(r: assets.GenerateSubtitlesRequest, asset: AssetEntity, now: Date): StoredTrack[] {
  const audio = asset.tracks.find((t) => t.id === r.track_id);
  if (!audio) throw DomainError.notFound('Track');
  const invalid: string[] = [];
  if (audio.type !== 'audio') invalid.push(`track ${audio.id}: subtitles are generated from an audio track, and this is a ${audio.type} track`);
  const items = r.generated_subtitles ?? [];
  if (items.length === 0) invalid.push('generated_subtitles: give at least one entry');
  if (items.length > 10) invalid.push('generated_subtitles: at most 10 entries');
  const taken = namesOf(asset.tracks, 'text');
  items.forEach((g, i) => {
    const at = `generated_subtitles[${i}]`;
    if (g.language_code !== undefined && !(GENERATED_SUBTITLE_LANGUAGES as readonly string[]).includes(g.language_code))
      invalid.push(`${at}.language_code: ${oneOf(GENERATED_SUBTITLE_LANGUAGES)}`);
    checkName(g.name, `${at}.name`, taken, 'text', invalid);
    if (g.name !== undefined && items.slice(0, i).some((o) => o.name === g.name)) invalid.push(`${at}.name: ${JSON.stringify(g.name)} is given twice`);
    invalid.push(...passthroughProblems(g.passthrough, `${at}.passthrough`));
  });
  if (invalid.length > 0) throw DomainError.invalid(...invalid);
  checkReady(asset, 'subtitles can be generated');
  if (audio.status !== undefined && audio.status !== 'ready')
    throw DomainError.precondition(`Audio track ${audio.id} is ${audio.status}: it can be heard once it is ready`);
  const closes = new Date(asset.createdAt.getTime() + GENERATE_SUBTITLES_DAYS * DAY_MS);
  if (now > closes) {
    throw DomainError.precondition(
      `Subtitles can be generated only within ${GENERATE_SUBTITLES_DAYS} days of the asset's creation (${asset.createdAt.toISOString()}); that ended ${closes.toISOString()}`,
    );
  }
  for (const name of items.flatMap((g) => (g.name !== undefined ? [g.name] : []))) taken.add(name);
  return items.map((g) => generatedTrack(g, isPrimaryAudio(audio) ? 'primary' : audio.id, taken));
}
