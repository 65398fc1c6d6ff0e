/**
 * What a stored media playlist says of its segments, for metering deliveries: each segment's media
 * seconds (its EXTINF), keyed by the folder and name it is fetched by. A URI `../live/seg.ts` (the
 * live edge's window lists the recording's segments) belongs to folder `live`; an EXT-X-MAP init
 * section carries no media time of its own; an LL-HLS part (EXT-X-PART) its DURATION, the part a
 * preload hint names its PART-TARGET.
 */
export interface MediaPlaylistSegments {
  /** `variant` → segment name → seconds. */
  byFolder: Map<string, Map<string, number>>;
  /** EXT-X-TARGETDURATION: the estimate for a segment the playlist does not list (yet). */
  targetSeconds: number;
}

const URI_ATTRIBUTE = /URI="([^"]*)"/;
const FOLDER_URI = /^\.\.\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;
const SAME_FOLDER_URI = /^[A-Za-z0-9_.-]+$/;

export function parseMediaPlaylist(text: string, variant: string): MediaPlaylistSegments {
  const byFolder = new Map<string, Map<string, number>>();
  let targetSeconds = 0;
  let pending: number | undefined;
  let partTarget = 0;
  const put = (uri: string, seconds: number) => {
    const where = placeOf(uri, variant);
    if (!where) return;
    let segments = byFolder.get(where.folder);
    if (!segments) byFolder.set(where.folder, (segments = new Map<string, number>()));
    segments.set(where.name, seconds);
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-TARGETDURATION:')) targetSeconds = Number.parseFloat(line.slice('#EXT-X-TARGETDURATION:'.length)) || 0;
    else if (line.startsWith('#EXTINF:')) pending = Number.parseFloat(line.slice('#EXTINF:'.length)) || 0;
    else if (line.startsWith('#EXT-X-MAP:')) {
      const uri = URI_ATTRIBUTE.exec(line)?.[1];
      if (uri) put(uri, 0);
    } else if (line.startsWith('#EXT-X-PART-INF:')) partTarget = Number.parseFloat(/PART-TARGET=([\d.]+)/.exec(line)?.[1] ?? '') || 0;
    else if (line.startsWith('#EXT-X-PRELOAD-HINT:')) {
      // the part to come is fetched before any playlist lists it: its part target until it is listed
      const uri = URI_ATTRIBUTE.exec(line)?.[1];
      if (uri && partTarget > 0) put(uri, partTarget);
    } else if (line.startsWith('#EXT-X-PART:')) {
      // a low-latency part: its own media seconds (a player fetches either the parts or their segment)
      const uri = URI_ATTRIBUTE.exec(line)?.[1];
      const seconds = Number.parseFloat(/DURATION=([\d.]+)/.exec(line)?.[1] ?? '');
      if (uri && Number.isFinite(seconds)) put(uri, seconds);
    } else if (line !== '' && !line.startsWith('#')) {
      if (pending !== undefined) put(line, pending);
      pending = undefined;
    }
  }
  return { byFolder, targetSeconds };
}

/** The folder and name a relative segment URI is fetched by; undefined for anything else (absolute URIs are not ours). */
function placeOf(uri: string, variant: string): { folder: string; name: string } | undefined {
  const path = uri.split('?')[0];
  if (SAME_FOLDER_URI.test(path)) return { folder: variant, name: path };
  const other = FOLDER_URI.exec(path);
  return other ? { folder: other[1], name: other[2] } : undefined;
}
