import { AccessUnit, firstPts, PictureWanted, shownAt } from '@platform/media';
import { TimedSegment } from './image-plan';

const TICKS = 90_000;

/** A segment of the storyboard's rendition with its pictures. */
export interface SegmentPictures {
  segment: TimedSegment;
  units: readonly AccessUnit[];
}

/** The picture a tile shows. */
export interface TilePick<S extends SegmentPictures = SegmentPictures> extends PictureWanted {
  /** Its time on the asset's timeline, seconds. */
  seconds: number;
  /** The segment it is in. */
  source: S;
}

/**
 * The picture of each tile: at an IDR when one lies within half a tile's interval of the tile's time (only
 * that picture is decoded; Mux's own storyboards sit on key frames too), else the picture shown at that time.
 * A picture two tiles would share is kept once (a very short asset gets fewer tiles). `pictures(t)` gives
 * the segment holding time t; `targets` rise.
 */
export function pickTiles<S extends SegmentPictures>(targets: readonly number[], pictures: (seconds: number) => S, interval: number): TilePick<S>[] {
  const picks: TilePick<S>[] = [];
  for (const target of targets) {
    const source = pictures(target);
    const { segment, units } = source;
    const origin = firstPts(units);
    if (origin === undefined) continue;
    const wanted = origin + Math.round((target - segment.start) * TICKS);
    const pts = nearestIdr(units, wanted, (interval / 2) * TICKS) ?? units[shownAt(units, wanted)].pts;
    const last = picks[picks.length - 1];
    if (last && last.units === units && last.pts === pts) continue;
    picks.push({ units, pts, seconds: segment.start + (pts - origin) / TICKS, source });
  }
  return picks;
}

function nearestIdr(units: readonly AccessUnit[], pts: number, within: number): number | undefined {
  let best: number | undefined;
  for (const unit of units) {
    if (unit.idr && Math.abs(unit.pts - pts) <= within && (best === undefined || Math.abs(unit.pts - pts) < Math.abs(best - pts))) best = unit.pts;
  }
  return best;
}
