/**
 * CORS for browser players (hls.js fetches playlists and segments with XHR/fetch): any
 * origin, and the range headers readable by script.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Content-Length, Content-Range, Accept-Ranges, ETag, Content-Disposition',
};

/** The answer to a CORS preflight (a player sending `Range`, for instance). */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'Range, If-None-Match, If-Modified-Since',
  'access-control-max-age': '86400',
};

export type PlaybackFile = 'master' | 'variant' | 'live-edge' | 'segment';

/**
 * Cache-Control per file. Segments never change once listed: a year, immutable. The master
 * changes when the ladder's renditions are added after `ready`: a few seconds. Variant
 * playlists grow while a live stream records: a few seconds too (a blocking reload's answer is for
 * its own URL); a low-latency live edge read plainly is revalidated each time.
 * Responses for a signed playback id are `private` (never kept by a shared cache).
 */
export function cacheControl(file: PlaybackFile, signed: boolean, grantSeconds: number): string {
  const scope = signed ? 'private' : 'public';
  switch (file) {
    case 'master':
      return `${scope}, max-age=${Math.min(MASTER_MAX_AGE, Math.floor(grantSeconds / 2))}`;
    case 'variant':
      return `${scope}, max-age=${Math.min(VARIANT_MAX_AGE, Math.floor(grantSeconds / 2))}`;
    case 'live-edge':
      // a low-latency playlist read without a blocking directive changes with every part
      return `${scope}, no-cache`;
    case 'segment':
      return `${scope}, max-age=31536000, immutable`;
  }
}

const MASTER_MAX_AGE = 2;
// short: a live stream's media playlist grows every segment
const VARIANT_MAX_AGE = 2;
