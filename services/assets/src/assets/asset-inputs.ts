import { characterCount, isLanguageCode, passthroughProblems } from '@platform/api-rules';
import { assets } from '@platform/proto';
import { StoredInput } from './asset.entity';

export const NAME_MAX = 255;
/** A main input, a watermark, and tracks: more than this is not a real asset. */
export const MAX_INPUTS = 32;
export const CLIP_URL = /^(svc|mux):\/\/assets\//i;
const CLIP_URL_EXACT = /^(?:svc|mux):\/\/assets\/([A-Za-z0-9]{1,255})$/;
const UPLOADED_FILE_KEY = /^uploads\/[A-Za-z0-9]{1,255}\/source$/;
/** Languages of generated subtitles (spec 2.2), and Mux's `auto`. */
export const GENERATED_SUBTITLE_LANGUAGES = [
  'en',
  'es',
  'it',
  'pt',
  'de',
  'fr',
  'pl',
  'ru',
  'nl',
  'ca',
  'tr',
  'sv',
  'uk',
  'no',
  'fi',
  'sk',
  'el',
  'cs',
  'hr',
  'da',
  'ro',
  'bg',
  'auto',
] as const;
const OVERLAY_ALIGN = { vertical_align: ['top', 'middle', 'bottom'], horizontal_align: ['left', 'center', 'right'] } as const;

/** What each input of spec 2.2 is, by its place and fields. */
export type InputRole = 'main' | 'overlay' | 'text' | 'audio';

/** The inputs of a new asset, checked and classified; names of tracks filled from their language. */
export interface ClassifiedInputs {
  /** Every input as stored (the settings applied, for input-info), in the order given. */
  stored: StoredInput[];
  roles: InputRole[];
  /** The source asset of a clip (`svc://assets/{id}` as the main input). */
  clipSourceAssetId?: string;
}

const oneOf = (values: readonly string[]) => `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/**
 * Spec 2.2 inputs. The first is the main media: a URL (`on_demand_url`), a clip of another asset
 * (`svc://assets/{id}`, with `start_time`/`end_time`), or none for a direct upload (its stored file,
 * `object_key`) and a live stream (the stream). Each later input is a watermark image
 * (`overlay_settings`; several are burnt in one over the other), or a text track (`type: text`, `text_type: subtitles`,
 * `language_code`) or an audio track (`type: audio`, `language_code`) from a URL. Track names are
 * unique within text and within audio tracks; one left out is filled from the language
 * (`English`, then `English 2`, …). Every problem goes into `invalid`, named by its field.
 */
export function classifyInputs(inputs: assets.AssetInput[], ingestType: string, invalid: string[]): ClassifiedInputs {
  const result: ClassifiedInputs = { stored: [], roles: [] };
  if (inputs.length === 0) {
    if (ingestType === 'on_demand_url' || ingestType === 'on_demand_clip') invalid.push('input: is required (the URL of a media file)');
    return result;
  }
  if (inputs.length > MAX_INPUTS) invalid.push(`input: at most ${MAX_INPUTS} inputs`);
  const live = ingestType === 'live_rtmp' || ingestType === 'live_srt';
  inputs.forEach((input, i) => {
    const at = `input[${i}]`;
    const role = i === 0 ? 'main' : isBareClip(input) ? notFirstClip(at, invalid) : roleOf(input, at, invalid);
    // a watermark on a live stream is a feature not built yet (see unbuilt-asset-features); tracks never are
    if (i > 0 && live && role !== 'overlay') invalid.push(`${at}: a live stream's recording takes no track inputs`);
    if (role === 'main') checkMain(input, ingestType, result, invalid);
    else if (role === 'overlay') checkOverlay(input, at, invalid);
    else if (role) checkTrack(input, role, at, invalid);
    result.roles.push(role ?? 'overlay');
    result.stored.push(storedInput(input));
  });
  nameTracks(result, invalid);
  return result;
}

const isBareClip = (input: assets.AssetInput): boolean =>
  input.url !== undefined && CLIP_URL.test(input.url) && input.type === undefined && input.overlay_settings === undefined;

function notFirstClip(at: string, invalid: string[]): undefined {
  invalid.push(`${at}.url: ${CLIP_NOT_FIRST}`);
  return undefined;
}

const CLIP_NOT_FIRST = 'a clip (svc://assets/{asset_id}) must be the first input';

/** A later input's URL: http(s); a clip's source can only be the first input. */
function checkLaterUrl(url: string, at: string, invalid: string[]): void {
  if (CLIP_URL.test(url)) invalid.push(`${at}.url: ${CLIP_NOT_FIRST}`);
  else if (!isHttpUrl(url)) invalid.push(`${at}.url: must be an http or https URL`);
}

/** A later input's role from its fields; undefined (and a problem noted) when it has none. */
function roleOf(input: assets.AssetInput, at: string, invalid: string[]): InputRole | undefined {
  if (input.overlay_settings !== undefined) {
    if (input.type !== undefined && input.type !== 'video') invalid.push(`${at}.type: a watermark (overlay_settings) is an image input, not ${input.type}`);
    return 'overlay';
  }
  if (input.type === 'text' || input.type === 'audio') return input.type;
  if (input.type === 'video') invalid.push(`${at}.type: only the first input is the video; a watermark image needs overlay_settings`);
  else if (input.type !== undefined) invalid.push(`${at}.type: ${oneOf(['video', 'audio', 'text'])}`);
  else invalid.push(`${at}: give type (text or audio) for a track, or overlay_settings for a watermark`);
  return undefined;
}

function checkMain(input: assets.AssetInput, ingestType: string, result: ClassifiedInputs, invalid: string[]): void {
  const { url, object_key: objectKey } = input;
  const fromUpload = ingestType === 'on_demand_direct_upload';
  if (input.type !== undefined && input.type !== 'video') invalid.push('input[0].type: the first input is the main media; text and audio tracks come after it');
  if (input.overlay_settings !== undefined) invalid.push('input[0].overlay_settings: a watermark is an input of its own, after the main input');
  for (const field of ['text_type', 'closed_captions', 'passthrough'] as const) {
    if (input[field] !== undefined) invalid.push(`input[0].${field}: only for text tracks (inputs with type text)`);
  }
  if (input.language_code !== undefined && !isLanguageCode(input.language_code)) invalid.push('input[0].language_code: must be a BCP 47 language code');
  if (input.name !== undefined) checkName(input.name, 'input[0].name', invalid);
  checkGeneratedSubtitles(input.generated_subtitles ?? [], invalid);
  if ((input.generated_subtitles ?? []).length > 0 && (ingestType === 'live_rtmp' || ingestType === 'live_srt'))
    invalid.push("input[0].generated_subtitles: a live stream's recordings get generated subtitles from the stream's own generated_subtitles");
  if (objectKey !== undefined && (!fromUpload || !UPLOADED_FILE_KEY.test(objectKey))) {
    invalid.push('input[0].object_key: only the uploads service names a stored file (uploads/{id}/source)');
  }
  const clip = url !== undefined && CLIP_URL.test(url);
  if (!clip && (input.start_time !== undefined || input.end_time !== undefined)) {
    invalid.push('input[0].start_time, end_time: only for clips (a url of the form svc://assets/{asset_id})');
  }
  if (url === undefined || url === '') {
    if (ingestType === 'on_demand_url' || ingestType === 'on_demand_clip') invalid.push('input[0].url: is required');
    return;
  }
  if (fromUpload) invalid.push('input[0].url: must be omitted for a direct upload (the uploaded file is the main input)');
  else if (ingestType === 'live_rtmp' || ingestType === 'live_srt')
    invalid.push('input[0].url: must be omitted for a live stream (the stream is the main input)');
  else if (clip) checkClip(input, result, invalid);
  else if (!isHttpUrl(url)) invalid.push('input[0].url: must be an http or https URL');
}

function checkClip(input: assets.AssetInput, result: ClassifiedInputs, invalid: string[]): void {
  const match = CLIP_URL_EXACT.exec(input.url ?? '');
  if (!match) {
    invalid.push('input[0].url: a clip names its source as svc://assets/{asset_id}');
    return;
  }
  result.clipSourceAssetId = match[1];
  const { start_time: start, end_time: end } = input;
  for (const [field, value] of [
    ['start_time', start],
    ['end_time', end],
  ] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value < 0)) invalid.push(`input[0].${field}: must be a number of seconds, 0 or more`);
  }
  if (start !== undefined && end !== undefined && start >= end) invalid.push('input[0].end_time: must be after start_time');
}

function checkOverlay(input: assets.AssetInput, at: string, invalid: string[]): void {
  if (input.url === undefined || input.url === '') invalid.push(`${at}.url: is required (the URL of the watermark image)`);
  else checkLaterUrl(input.url, at, invalid);
  const settings = input.overlay_settings ?? {};
  for (const [field, values] of Object.entries(OVERLAY_ALIGN)) {
    const value = settings[field as keyof typeof OVERLAY_ALIGN];
    if (value !== undefined && !(values as readonly string[]).includes(value)) invalid.push(`${at}.overlay_settings.${field}: ${oneOf(values)}`);
  }
  for (const field of ['vertical_margin', 'horizontal_margin'] as const) {
    const value = settings[field];
    if (value !== undefined && !/^-?\d+(\.\d+)?(%|px)$/.test(value))
      invalid.push(`${at}.overlay_settings.${field}: must be a percentage ("10%") or pixels ("40px"), negative to move it offscreen`);
  }
  for (const field of ['width', 'height'] as const) {
    const value = settings[field];
    if (value !== undefined && !/^\d+(\.\d+)?(%|px)$/.test(value))
      invalid.push(`${at}.overlay_settings.${field}: must be a percentage ("25%") or pixels ("200px")`);
  }
  if (settings.opacity !== undefined && !/^\d+(\.\d+)?%$/.test(settings.opacity))
    invalid.push(`${at}.overlay_settings.opacity: must be a percentage from "0%" to "100%"`);
  else if (settings.opacity !== undefined && Number.parseFloat(settings.opacity) > 100) invalid.push(`${at}.overlay_settings.opacity: must be at most "100%"`);
  for (const field of ['text_type', 'language_code', 'name', 'closed_captions', 'passthrough', 'start_time', 'end_time'] as const) {
    if (input[field] !== undefined) invalid.push(`${at}.${field}: not a setting of a watermark`);
  }
  if ((input.generated_subtitles ?? []).length > 0) invalid.push(`${at}.generated_subtitles: only on the first input`);
}

function checkTrack(input: assets.AssetInput, type: 'text' | 'audio', at: string, invalid: string[]): void {
  if (input.url === undefined || input.url === '')
    invalid.push(`${at}.url: is required (the URL of the ${type === 'text' ? 'SRT or WebVTT file' : 'audio file'})`);
  else checkLaterUrl(input.url, at, invalid);
  if (input.language_code === undefined) invalid.push(`${at}.language_code: is required for ${type} tracks`);
  else if (!isLanguageCode(input.language_code)) invalid.push(`${at}.language_code: must be a BCP 47 language code such as "en" or "es-MX"`);
  if (input.name !== undefined) checkName(input.name, `${at}.name`, invalid);
  invalid.push(...passthroughProblems(input.passthrough, `${at}.passthrough`));
  if (type === 'text') {
    if (input.text_type === undefined) invalid.push(`${at}.text_type: is required for text tracks ("subtitles")`);
    else if (input.text_type !== 'subtitles') invalid.push(`${at}.text_type: ${oneOf(['subtitles'])}`);
  } else {
    for (const field of ['text_type', 'closed_captions'] as const) if (input[field] !== undefined) invalid.push(`${at}.${field}: only for text tracks`);
  }
  for (const field of ['start_time', 'end_time'] as const) if (input[field] !== undefined) invalid.push(`${at}.${field}: only for clips (the first input)`);
  if ((input.generated_subtitles ?? []).length > 0) invalid.push(`${at}.generated_subtitles: only on the first input`);
}

function checkGeneratedSubtitles(items: assets.GeneratedSubtitleSettings[], invalid: string[]): void {
  items.forEach((g, i) => {
    const at = `input[0].generated_subtitles[${i}]`;
    if (g.language_code !== undefined && !(GENERATED_SUBTITLE_LANGUAGES as readonly string[]).includes(g.language_code)) {
      invalid.push(`${at}.language_code: ${oneOf(GENERATED_SUBTITLE_LANGUAGES)}`);
    }
    if (g.name !== undefined) checkName(g.name, `${at}.name`, invalid);
    invalid.push(...passthroughProblems(g.passthrough, `${at}.passthrough`));
  });
}

function checkName(name: string, at: string, invalid: string[]): void {
  if (name.trim() === '' || characterCount(name) > NAME_MAX) invalid.push(`${at}: must be 1 to ${NAME_MAX} characters`);
}

/**
 * Names are unique within the text tracks and within the audio tracks (the main input's `name` names
 * its own audio track, the primary). A name given twice is a problem; one left out is the language's
 * English name, numbered when taken (`English 2`): the main input's first, when it has a language.
 */
function nameTracks(result: ClassifiedInputs, invalid: string[]): void {
  for (const group of ['text', 'audio'] as const) {
    const members = result.roles.flatMap((role, i) => (role === group || (group === 'audio' && role === 'main') ? [i] : []));
    const taken = new Set<string>();
    for (const i of members) {
      const name = result.stored[i].name;
      if (name === undefined) continue;
      if (taken.has(name)) invalid.push(`input[${i}].name: ${JSON.stringify(name)} is already the name of another ${group} track`);
      taken.add(name);
    }
    for (const i of members) {
      const input = result.stored[i];
      if (input.name !== undefined || input.language_code === undefined) continue;
      input.name = uniqueName(languageName(input.language_code), taken);
      taken.add(input.name);
    }
  }
}

/** The language's name in English (`en` → `English`, `es-MX` → `Mexican Spanish`); the code itself if unknown. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** `base`, or `base 2`, `base 3`, … the first not in `taken`. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/** The input as stored: its fields, without proto defaults (an empty generated_subtitles list). */
function storedInput(input: assets.AssetInput): StoredInput {
  const stored: StoredInput = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    (stored as Record<string, unknown>)[key] = structuredClone(value);
  }
  return stored;
}

export function isHttpUrl(value: string): boolean {
  try {
    const { protocol, hostname } = new URL(value);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  } catch {
    return false;
  }
}
