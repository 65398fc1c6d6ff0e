import { PlaylistSegment } from './live-playlists';

export type SpanType = 'content' | 'slate';

export interface ListedSegment extends PlaylistSegment {
  span: number;
}

export interface Span {
  type: SpanType;
  startedAt: Date;
}

/** Spec 2.1's `recording_times`: one entry per span that kept segments. */
export interface RecordingTime {
  started_at: string;
  duration: number;
  type: SpanType;
}

/** `recording_times` of the segments kept: each span's start and the length of its segments, empty spans left out. */
export function recordingTimes(spans: Span[], segments: Array<Pick<ListedSegment, 'span' | 'duration'>>): RecordingTime[] {
  return spans.flatMap((span, i) => {
    const listed = segments.filter((s) => s.span === i);
    if (listed.length === 0) return [];
    const duration = Math.round(listed.reduce((sum, s) => sum + s.duration, 0) * 1000) / 1000;
    return [{ started_at: span.startedAt.toISOString(), duration, type: span.type }];
  });
}
