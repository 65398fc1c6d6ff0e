import { SpanPackager } from './hls-packager';
import { LiveRecording } from './live-recording';
import { OpenRecording } from './live-recordings.service';
import { PublishSession } from './rtmp-server';
import { SimulcastRelay } from './simulcast-relay';

/** An encoder session of this process. */
export interface Running {
  session: PublishSession;
  streamId: string;
  key: string;
  startedAt: Date;
  recording: LiveRecording;
  packager?: SpanPackager;
  relays: SimulcastRelay[];
  /** Set when the platform ended the session (no reconnect window then). */
  endedBy?: string;
  /** `complete` closed the recording; the encoder stays connected until its 60 s are over. */
  completed?: boolean;
}

/** A recording this process holds open (an encoder on, or its reconnect window). */
export interface Held extends OpenRecording {
  /** While the encoder is away: the end of the reconnect window (or the next try at closing). */
  window?: NodeJS.Timeout;
  /** Simulcast targets that failed fatally: not tried again for this recording. */
  fatalTargets: Set<string>;
  /** Set while the recording is being closed (a second close waits for nothing). */
  closing?: boolean;
}

/** The encoder sessions and open recordings of this process, by session and by stream. */
export class IngestState {
  readonly running = new Map<string, Running>();
  readonly held = new Map<string, Held>();
  /** Recordings being restored from the store, by stream (an admission waits for its stream's). */
  readonly adopting = new Map<string, Promise<Held>>();

  hasEncoder(streamId: string): boolean {
    return [...this.running.values()].some((r) => r.streamId === streamId);
  }

  /** The streams this process holds: open recordings, and sessions not completed (a completed one's stream is idle). */
  heldStreamIds(): string[] {
    const live = [...this.running.values()].filter((r) => !r.completed).map((r) => r.streamId);
    return [...new Set([...this.held.keys(), ...live])];
  }
}
