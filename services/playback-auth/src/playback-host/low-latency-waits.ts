import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { playlistEdge, reaches, tooFarAhead } from './low-latency-playlist';
import { PlaybackError } from './playback-error';

/** How often a held request looks at the store again; reads of one key within it are shared. */
const POLL_MS = 50;
/** A preload-hinted part is waited for at most this long (its span may have ended). */
const PART_WAIT_MS = 3000;
/** Shared reads remembered at most. */
const MAX_SHARED = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The waits of LL-HLS: a blocking playlist reload is held until the stored playlist holds the segment
 * or part asked for (at most three target durations, then 503), and a request for the part a playlist
 * hints at is held until it is stored. Every held request of one playlist shares one store read per
 * POLL_MS, so a thousand players at the edge cost the store what one does.
 */
@Injectable()
export class LowLatencyWaits {
  private readonly shared = new Map<string, { at: number; text: Promise<string> }>();

  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  /** The playlist at `key` once it holds segment `msn` (or its part `part`); `stored` is what was read first. */
  async playlistReaching(key: string, stored: string, msn: number, part?: number): Promise<string> {
    let text = stored;
    let edge = playlistEdge(text);
    if (!edge.canBlock) return text;
    if (tooFarAhead(edge, msn, part)) {
      throw new PlaybackError(
        400,
        `_HLS_msn=${msn}${part === undefined ? '' : ` _HLS_part=${part}`} is too far past the playlist's last segment (${edge.nextMsn - 1})`,
      );
    }
    const deadline = Date.now() + 3 * Math.max(edge.targetSeconds, 1) * 1000;
    while (!edge.ended && !reaches(edge, msn, part)) {
      if (Date.now() >= deadline)
        throw new PlaybackError(503, `The live stream did not reach segment ${msn}${part === undefined ? '' : ` part ${part}`} in 3 target durations`);
      await sleep(POLL_MS);
      text = await this.read(key);
      edge = playlistEdge(text);
    }
    return text;
  }

  /** Waits (at most PART_WAIT_MS) until a part is stored; whether it is. */
  async partStored(key: string): Promise<boolean> {
    const deadline = Date.now() + PART_WAIT_MS;
    for (;;) {
      if (await this.store.stat(key)) return true;
      if (Date.now() >= deadline) return false;
      await sleep(POLL_MS);
    }
  }

  private read(key: string): Promise<string> {
    const now = Date.now();
    const recent = this.shared.get(key);
    if (recent && now - recent.at < POLL_MS) return recent.text;
    const text = this.store.getBuffer(key).then((b) => b.toString('utf8'));
    this.shared.delete(key);
    this.shared.set(key, { at: now, text });
    if (this.shared.size > MAX_SHARED) this.shared.delete(this.shared.keys().next().value!);
    return text;
  }
}
