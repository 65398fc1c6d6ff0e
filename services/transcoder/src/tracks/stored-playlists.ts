/** A variant of a stored master playlist: its media playlist (relative to the master) and peak bit rate. */
export interface StoredVariant {
  uri: string;
  bandwidth: number;
}

/** A segment of a stored media playlist, with where it starts on the rendition's timeline. */
export interface PlaylistEntry {
  uri: string;
  duration: number;
  start: number;
  /** The first segment after an `#EXT-X-DISCONTINUITY` (timestamps start again). */
  discontinuity: boolean;
}

/** A run of segments between discontinuities: one continuous stretch of MPEG-TS timestamps. */
export interface PlaylistSpan {
  start: number;
  duration: number;
  entries: PlaylistEntry[];
}

/** The variants a master lists, in its order (`#EXT-X-STREAM-INF` then the URI line). */
export function masterVariants(master: string): StoredVariant[] {
  const variants: StoredVariant[] = [];
  let bandwidth: number | undefined;
  for (const raw of master.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-STREAM-INF:')) bandwidth = Number(/[:,]BANDWIDTH=(\d+)/.exec(line)?.[1] ?? 0);
    else if (line !== '' && !line.startsWith('#') && bandwidth !== undefined) {
      variants.push({ uri: line, bandwidth });
      bandwidth = undefined;
    }
  }
  return variants;
}

/** The segments of a media playlist, each with its start on the timeline and whether a discontinuity precedes it. */
export function playlistEntries(playlist: string): PlaylistEntry[] {
  const entries: PlaylistEntry[] = [];
  let duration: number | undefined;
  let discontinuity = false;
  let start = 0;
  for (const raw of playlist.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    else if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice('#EXTINF:'.length));
    else if (line !== '' && !line.startsWith('#') && duration !== undefined) {
      entries.push({ uri: line, duration, start, discontinuity: discontinuity && entries.length > 0 });
      start += duration;
      duration = undefined;
      discontinuity = false;
    }
  }
  return entries;
}

/** The entries grouped into spans at each discontinuity. */
export function spansOf(entries: readonly PlaylistEntry[]): PlaylistSpan[] {
  const spans: PlaylistSpan[] = [];
  for (const entry of entries) {
    const last = spans[spans.length - 1];
    if (!last || entry.discontinuity) spans.push({ start: entry.start, duration: entry.duration, entries: [entry] });
    else {
      last.entries.push(entry);
      last.duration += entry.duration;
    }
  }
  return spans;
}

/** A URI of a playlist as a path under the asset's `hls/` folder (`360p/index.m3u8` + `segment_000.ts` → `360p/segment_000.ts`). */
export function resolveUnder(base: string, uri: string): string {
  const folder = base.includes('/') ? base.slice(0, base.lastIndexOf('/') + 1) : '';
  const path = `${folder}${uri.split('?')[0]}`;
  if (path.split('/').some((s) => s === '..' || s === '') || /^[a-z]+:/i.test(uri)) throw new Error(`${uri} is not a file of the asset's HLS`);
  return path;
}
