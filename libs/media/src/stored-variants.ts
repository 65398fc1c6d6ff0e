/**
 * The renditions of a stored master playlist (`assets/{id}/hls/master.m3u8`, written by the transcoder's
 * ladder or the live ingest), for the services that read an asset's media: the transcoder (static renditions,
 * master files, tracks) and the playback service's image host.
 */

/** One rendition a stored master playlist lists (`#EXT-X-STREAM-INF` and the URI after it). */
export interface StoredVariant {
  /** Its folder under the asset's `hls/`: `720p`, `source`, `live`, `audio`. */
  name: string;
  width?: number;
  height?: number;
  bandwidth: number;
}

/** The renditions of a master playlist in its order (highest first, as the worker writes it); alternate groups are not renditions. */
export function parseMasterPlaylist(text: string): StoredVariant[] {
  const variants: StoredVariant[] = [];
  let pending: { width?: number; height?: number; bandwidth: number } | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      const resolution = /RESOLUTION=(\d+)x(\d+)/.exec(line);
      const bandwidth = /(?:^|[:,])BANDWIDTH=(\d+)/.exec(line);
      pending = { bandwidth: bandwidth ? Number(bandwidth[1]) : 0, ...(resolution ? { width: Number(resolution[1]), height: Number(resolution[2]) } : {}) };
    } else if (line && !line.startsWith('#') && pending) {
      const folder = /^([A-Za-z0-9_.-]+)\/index\.m3u8$/.exec(line);
      if (folder) variants.push({ name: folder[1], ...pending });
      pending = undefined;
    }
  }
  return variants;
}

const pixels = (v: StoredVariant) => (v.width ?? 0) * (v.height ?? 0);

/** The top rendition: the most pixels (an audio-only asset's only one), ties to the higher bandwidth. */
export function topVariant(variants: readonly StoredVariant[]): StoredVariant | undefined {
  return [...variants].sort((a, b) => pixels(b) - pixels(a) || b.bandwidth - a.bandwidth)[0];
}
