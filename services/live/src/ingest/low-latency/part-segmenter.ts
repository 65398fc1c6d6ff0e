/** A part of a live segment as the playlists list it. */
export interface ListedPart {
  name: string;
  duration: number;
  independent: boolean;
}

/** The parts of one segment, in order (its first independent, unless the stream never had a key frame). */
export type SegmentOfParts = ListedPart[];

/**
 * Groups a span's parts into segments: a segment ends before the first independent part that comes
 * once it holds `segmentSeconds`, so every segment starts at a key frame and lasts at least that long
 * (longer when the encoder's key frames are further apart).
 */
export class PartSegmenter {
  private open: ListedPart[] = [];
  private openSeconds = 0;

  constructor(private readonly segmentSeconds: number) {}

  /** A part follows: returns the segment it closed, if it starts the next one. */
  add(part: ListedPart): SegmentOfParts | undefined {
    const closes = this.open.length > 0 && part.independent && this.openSeconds >= this.segmentSeconds - 1e-6;
    const closed = closes ? this.take() : undefined;
    this.open.push(part);
    this.openSeconds += part.duration;
    return closed;
  }

  /** The span ended: the parts not yet in a segment make its last one. */
  end(): SegmentOfParts | undefined {
    return this.open.length > 0 ? this.take() : undefined;
  }

  /** The parts of the segment under way. */
  get pending(): readonly ListedPart[] {
    return this.open;
  }

  private take(): SegmentOfParts {
    const parts = this.open;
    this.open = [];
    this.openSeconds = 0;
    return parts;
  }
}
