/**
 * Reading the HLS playlists stored under `assets/{id}/hls/` (written by the transcoder and the live
 * ingest): what a service needs to find an asset's media without decoding it.
 */

/** A media segment as a media playlist lists it. */
export interface PlaylistSegment {
  uri: string;
  /** `#EXTINF` seconds. */
  duration: number;
  /** Preceded by `#EXT-X-DISCONTINUITY` (a live reconnect, slate, or back from slate). */
  discontinuity: boolean;
}

/** Segments of a media playlist (`#EXTINF:<duration>,` then the URI line), with their discontinuities. */
export function parseMediaPlaylist(text: string): PlaylistSegment[] {
  const segments: PlaylistSegment[] = [];
  let duration: number | undefined;
  let discontinuity = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    else if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice('#EXTINF:'.length));
    else if (line && !line.startsWith('#') && duration !== undefined) {
      segments.push({ uri: line, duration: Number.isFinite(duration) ? duration : 0, discontinuity });
      duration = undefined;
      discontinuity = false;
    }
  }
  return segments;
}

/** The seconds a media playlist lasts: the sum of its segments' `#EXTINF`. */
export function playlistSeconds(segments: readonly Pick<PlaylistSegment, 'duration'>[]): number {
  return segments.reduce((sum, s) => sum + s.duration, 0);
}

/** The variant URIs of a master playlist (the line after each `#EXT-X-STREAM-INF`), in its order. */
export function masterVariantUris(text: string): string[] {
  const uris: string[] = [];
  let expectingUri = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-STREAM-INF:')) expectingUri = true;
    else if (expectingUri && line && !line.startsWith('#')) {
      uris.push(line);
      expectingUri = false;
    }
  }
  return uris;
}
