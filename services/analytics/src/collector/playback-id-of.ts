/** A playback id's characters (base62, as libs/ids makes them; Mux's are the same). */
const PLAYBACK_ID = /^[A-Za-z0-9]{1,64}$/;

/**
 * The playback id in a playback URL of ours (or Mux's): `{stream_url}/{PLAYBACK_ID}.m3u8?token=…`, or a static
 * rendition `{stream_url}/{PLAYBACK_ID}/{name}.mp4|.m4a`; undefined for anything else (a customer's own URL).
 */
export function playbackIdOf(sourceUrl: unknown): string | undefined {
  if (typeof sourceUrl !== 'string' || !URL.canParse(sourceUrl)) return undefined;
  const url = new URL(sourceUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const segments = url.pathname.split('/').slice(1);
  let id: string | undefined;
  if (segments.length === 1 && segments[0].endsWith('.m3u8')) id = segments[0].slice(0, -'.m3u8'.length);
  else if (segments.length === 2 && /\.(mp4|m4a)$/.test(segments[1])) id = segments[0];
  return id !== undefined && PLAYBACK_ID.test(id) ? id : undefined;
}
