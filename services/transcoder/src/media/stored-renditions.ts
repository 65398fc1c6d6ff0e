import { floorEven, StoredVariant, topVariant } from '@platform/media';

const shortSide = (v: StoredVariant) => Math.min(v.width ?? 0, v.height ?? 0);

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
