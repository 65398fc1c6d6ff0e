/**
 * HLS playlists as stored hold relative URIs (`<variant>/index.m3u8` in the master,
 * `segment_000.ts` in a variant). The playback host serves them under the playback id and
 * appends a grant to every child URI so a player needs the token on the master only.
 */

const URI_ATTRIBUTE = /URI="([^"]*)"/g;

/** Master playlist: every child URI becomes `{playbackId}/<uri>` with the grant appended. */
export function rewriteMasterPlaylist(text: string, playbackId: string, grant: string): string {
  return rewriteUris(text, (uri) => withGrant(`${playbackId}/${uri}`, grant));
}

/** Variant (media) playlist: every segment URI keeps its relative path and gets the grant. */
export function rewriteMediaPlaylist(text: string, grant: string): string {
  return rewriteUris(text, (uri) => withGrant(uri, grant));
}

/**
 * Applies `rewrite` to each relative URI: the URI lines and the `URI="…"` attributes of tags
 * (EXT-X-MEDIA, EXT-X-I-FRAME-STREAM-INF, EXT-X-MAP, EXT-X-KEY…). Absolute URIs (a scheme
 * or a leading `/`) are left alone: they do not point into this asset's storage.
 */
function rewriteUris(text: string, rewrite: (uri: string) => string): string {
  return text
    .split(/\r?\n/)
    .map((raw) => {
      const line = raw.trim();
      if (line === '') return line;
      if (line.startsWith('#')) {
        return line.startsWith('#EXT') ? line.replace(URI_ATTRIBUTE, (match, uri: string) => (isRelative(uri) ? `URI="${rewrite(uri)}"` : match)) : line;
      }
      return isRelative(line) ? rewrite(line) : line;
    })
    .join('\n');
}

function isRelative(uri: string): boolean {
  return uri !== '' && !uri.startsWith('/') && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri);
}

function withGrant(uri: string, grant: string): string {
  return `${uri}${uri.includes('?') ? '&' : '?'}grant=${grant}`;
}
