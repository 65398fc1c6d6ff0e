import { RungListing } from '../recording-publisher';
import { PART_TARGET_SECONDS } from './parts-packager';
import { ListedPart, SegmentOfParts } from './part-segmenter';

/** Segments whose parts stay stored (and listable); older ones' parts are deleted (their segments hold the same bytes). */
const SEGMENTS_WITH_PARTS = 12;

/**
 * What a low-latency recording's live edge lists besides its segments: the parts of its recent
 * segments, the parts of the segment under way and the part to come. Parts of spans that end or of
 * segments that grow old are dropped (`stale` returns the names the store may delete).
 */
export class LowLatencyEdge {
  private readonly partsOf = new Map<string, readonly ListedPart[]>();
  private open?: { span: number; parts: ListedPart[]; discontinuity: boolean };
  private hint?: { span: number; name: string };

  /** A part of `span` is stored; `next` names the one after it; `discontinuity`: it begins a span after another. */
  partAdded(span: number, part: ListedPart, next: string, discontinuity: boolean): void {
    if (this.open?.span !== span) this.open = { span, parts: [], discontinuity };
    this.open.parts.push(part);
    this.hint = { span, name: next };
  }

  /** A segment of `span` made of `parts` is listed: they leave the segment under way. Returns parts to delete. */
  segmentAdded(span: number, name: string, parts: SegmentOfParts): string[] {
    this.partsOf.set(name, parts);
    if (this.open?.span === span) {
      const names = new Set(parts.map((p) => p.name));
      this.open.parts = this.open.parts.filter((p) => !names.has(p.name));
      if (this.open.parts.length === 0) this.open = undefined;
    }
    const stale: string[] = [];
    for (const [segment, old] of this.partsOf) {
      if (this.partsOf.size <= SEGMENTS_WITH_PARTS) break;
      this.partsOf.delete(segment);
      stale.push(...old.map((p) => p.name));
    }
    return stale;
  }

  /** `span` ended: no part of it is under way or to come. */
  spanEnded(span: number): void {
    if (this.open?.span === span) this.open = undefined;
    if (this.hint?.span === span) this.hint = undefined;
  }

  /** The parts, hint and part target every rung's playlist lists. */
  listing(): RungListing {
    return {
      partTarget: PART_TARGET_SECONDS,
      partsOf: this.partsOf,
      open: this.open?.parts ?? [],
      openDiscontinuity: this.open?.discontinuity ?? false,
      preloadHint: this.hint?.name,
    };
  }
}
