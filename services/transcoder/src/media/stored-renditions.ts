import { floorEven } from './resolution';

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
const shortSide = (v: StoredVariant) => Math.min(v.width ?? 0, v.height ?? 0);

/** The top rendition: the most pixels (an audio-only asset's only one), ties to the higher bandwidth. */
export function topVariant(variants: readonly StoredVariant[]): StoredVariant | undefined {
  return [...variants].sort((a, b) => pixels(b) - pixels(a) || b.bandwidth - a.bandwidth)[0];
}

/** What a static rendition is made from, and how. */
export type StaticSource =
  { kind: 'remux'; variant: string; width?: number; height?: number } | { kind: 'encode'; variant: string; width: number; height: number };

/**
 * How to make a file of `shortSide` (0: the top rendition as it is) from the stored renditions: a remux of
 * the stored rendition of exactly that size (the ladder's own encode), else an encode of the best source —
 * the stream-copied `source` rendition when it was kept (the original), else the top one — scaled to that
 * short side with the top rendition's aspect ratio (even sizes). An M4A is the top rendition's audio.
 */
export function chooseStaticSource(
  planned: { video: boolean; shortSide: number },
  variants: readonly StoredVariant[],
  sourceKept: boolean,
): StaticSource | undefined {
  const top = topVariant(variants);
  if (!top) return undefined;
  if (!planned.video || planned.shortSide === 0) return { kind: 'remux', variant: top.name, width: top.width, height: top.height };
  const exact = variants.find((v) => shortSide(v) === planned.shortSide);
  if (exact) return { kind: 'remux', variant: exact.name, width: exact.width, height: exact.height };
  if (!top.width || !top.height) return undefined;
  const scale = planned.shortSide / shortSide(top);
  const portrait = top.height > top.width;
  const long = floorEven((portrait ? top.height : top.width) * scale);
  const short = floorEven(planned.shortSide);
  return { kind: 'encode', variant: sourceKept ? 'source' : top.name, width: portrait ? short : long, height: portrait ? long : short };
}

/**
 * The master MP4's rendition: the stream-copied `source` rendition when it was kept (a standard input's
 * original quality), else the top rendition of the master playlist.
 */
export function masterSource(variants: readonly StoredVariant[], sourceKept: boolean): string | undefined {
  if (sourceKept) return 'source';
  return topVariant(variants)?.name;
}
