import { PlaylistSegment } from '../live-playlists';
import { LiveRung } from '../media/live-ladder';
import { RecordingPublisher, RungListing } from '../recording-publisher';
import { LowLatencyEdge } from './low-latency-edge';
import { SegmentOfParts } from './part-segmenter';
import { FinishedPart } from './parts-packager';

/**
 * A low-latency recording's live edge in the store: each part stored and listed at once (the
 * recording's own playlist lists segments only), the parts of old segments deleted, the hint dropped
 * when a span ends, and every part deleted once the recording is closed.
 */
export class LowLatencyLive {
  private readonly edge = new LowLatencyEdge();

  constructor(
    private readonly publisher: RecordingPublisher,
    private readonly rungs: () => readonly LiveRung[],
    private readonly warn: (message: string) => void,
  ) {}

  listing(): RungListing {
    return this.edge.listing();
  }

  async partAdded(part: FinishedPart, span: number, discontinuity: boolean, segments: readonly PlaylistSegment[]): Promise<void> {
    await this.publisher.putPart(this.rungs(), part);
    this.edge.partAdded(span, { name: part.name, duration: part.duration, independent: part.independent }, part.next, discontinuity);
    await this.publisher.putWindows(this.rungs(), segments, this.edge.listing());
  }

  /** A segment of `span` is about to be listed: its parts leave the segment under way; older segments' parts are deleted (off the caller's path). */
  segmentAdded(span: number, name: string, parts: SegmentOfParts): void {
    const stale = this.edge.segmentAdded(span, name, parts);
    if (stale.length > 0) void this.publisher.deleteParts(this.rungs(), stale).catch((err: unknown) => this.warn(`deleting parts: ${String(err)}`));
  }

  /** The span's ffmpeg ended: the live edge names no part of it to come. */
  async spanEnded(span: number, segments: readonly PlaylistSegment[]): Promise<void> {
    this.edge.spanEnded(span);
    if (segments.length > 0) await this.publisher.putWindows(this.rungs(), segments, this.edge.listing());
  }

  /** The recording is closed (its playlists list no parts): every part goes, a restored recording's and trailing slate's too. */
  async closed(): Promise<void> {
    await this.publisher.deleteAllParts(this.rungs()).catch((err: unknown) => this.warn(`deleting parts: ${String(err)}`));
  }
}
