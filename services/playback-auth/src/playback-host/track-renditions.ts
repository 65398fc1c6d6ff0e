import { assets } from '@platform/proto';
import { trackPaths } from '@platform/storage';

/** The group ids the master's renditions of tracks use (a live recording's own SUBTITLES group is reused). */
export const SUBTITLES_GROUP = 'subs';
export const AUDIO_GROUP = 'audio';
/** What SDH subtitles carry (RFC 8216 CHARACTERISTICS, as Apple's authoring spec names them). */
export const SDH_CHARACTERISTICS = 'public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound';
/** Mux calls the primary audio track "Default" when the main input gave it no name or language. */
export const DEFAULT_AUDIO_NAME = 'Default';
const AAC_LC = 'mp4a.40.2';

/** A value for a quoted HLS attribute, which cannot hold a double quote or a line break. */
const quoted = (value: string) => value.replace(/"/g, "'").replace(/[\r\n]+/g, ' ');

function attribute(line: string, name: string): string | undefined {
  return new RegExp(`[:,]${name}="([^"]*)"`).exec(line)?.[1];
}

function subtitlesMedia(t: assets.Track, group: string): string {
  const attributes = [
    'TYPE=SUBTITLES',
    `GROUP-ID="${group}"`,
    `NAME="${quoted(t.name ?? t.language_code ?? t.id)}"`,
    ...(t.language_code ? [`LANGUAGE="${quoted(t.language_code)}"`] : []),
    'DEFAULT=NO',
    'AUTOSELECT=YES',
    ...(t.closed_captions ? [`CHARACTERISTICS="${SDH_CHARACTERISTICS}"`] : []),
    `URI="${trackPaths.playlist('text', t.id)}"`,
  ];
  return `#EXT-X-MEDIA:${attributes.join(',')}`;
}

function audioMedia(t: assets.Track, isDefault: boolean, uri: string | undefined): string {
  const attributes = [
    'TYPE=AUDIO',
    `GROUP-ID="${AUDIO_GROUP}"`,
    `NAME="${quoted(t.name ?? (t.primary ? DEFAULT_AUDIO_NAME : (t.language_code ?? t.id)))}"`,
    ...(t.language_code ? [`LANGUAGE="${quoted(t.language_code)}"`] : []),
    `DEFAULT=${isDefault ? 'YES' : 'NO'}`,
    'AUTOSELECT=YES',
    ...(uri ? [`URI="${uri}"`] : []),
  ];
  return `#EXT-X-MEDIA:${attributes.join(',')}`;
}

/** The variant entry with the groups it uses (and the alternate audio's codec when the variant has no audio of its own). */
function withGroups(line: string, groups: { subtitles?: string; audio: boolean; audioCodecMissing: boolean }): string {
  let out = line;
  if (groups.subtitles && attribute(out, 'SUBTITLES') === undefined) out += `,SUBTITLES="${groups.subtitles}"`;
  if (groups.audio && attribute(out, 'AUDIO') === undefined) out += `,AUDIO="${AUDIO_GROUP}"`;
  const codecs = attribute(out, 'CODECS');
  if (groups.audioCodecMissing && codecs !== undefined && !codecs.includes('mp4a')) out = out.replace(`CODECS="${codecs}"`, `CODECS="${codecs},${AAC_LC}"`);
  return out;
}

/**
 * The stored master of an asset's variants with its tracks' renditions added, as the playback host
 * serves it: a SUBTITLES group (`NAME`, `LANGUAGE`, `DEFAULT=NO`, `AUTOSELECT=YES`, and the SDH
 * `CHARACTERISTICS` for `closed_captions`) of the ready text tracks' segmented WebVTT, and an AUDIO
 * group of the primary audio (muxed in the variants: no URI, the default) and the ready alternate
 * audio tracks. Every variant names the groups. A master that already has a SUBTITLES group (a live
 * recording's generated subtitles) gets the text tracks in that group. Composed on every request from
 * the asset's tracks, so a track added or deleted is never lost to a concurrent write of the master.
 */
export function withTrackRenditions(master: string, tracks: readonly assets.Track[]): string {
  const text = tracks.filter((t) => t.type === 'text');
  const alternates = tracks.filter((t) => t.type === 'audio' && !t.primary);
  if (text.length === 0 && alternates.length === 0) return master;
  const primary = alternates.length > 0 ? tracks.find((t) => t.type === 'audio' && t.primary) : undefined;

  const lines = master.split(/\r?\n/);
  const variants = lines.filter((l) => l.startsWith('#EXT-X-STREAM-INF:'));
  const subtitles = text.length > 0 ? (variants.map((l) => attribute(l, 'SUBTITLES')).find((g) => g !== undefined) ?? SUBTITLES_GROUP) : undefined;
  const media = [
    ...text.map((t) => subtitlesMedia(t, subtitles!)),
    ...(primary ? [audioMedia(primary, true, undefined)] : []),
    ...alternates.map((t, i) => audioMedia(t, !primary && i === 0, trackPaths.playlist('audio', t.id))),
  ];
  const groups = { subtitles, audio: alternates.length > 0, audioCodecMissing: alternates.length > 0 && !primary };

  const first = lines.findIndex((l) => l.startsWith('#EXT-X-STREAM-INF:'));
  const out = lines.map((l) => (l.startsWith('#EXT-X-STREAM-INF:') ? withGroups(l, groups) : l));
  out.splice(first < 0 ? out.length : first, 0, ...media);
  return out.join('\n');
}
