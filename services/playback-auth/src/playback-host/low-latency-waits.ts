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
  private readonly reads = new Map<string, { at: number; value: Promise<string> }>();
  private readonly stats = new Map<string, { at: number; value: Promise<boolean> }>();

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

  /**
   * Waits (at most PART_WAIT_MS) until a part is stored; whether it is. Only the part after a stored one
   * is waited for (what a preload hint names): any other missing part is answered at once.
   */
  async partStored(key: string): Promise<boolean> {
    if (await this.exists(key)) return true;
    const previous = previousPart(key);
    if (previous === undefined || !(await this.exists(previous))) return false;
    const deadline = Date.now() + PART_WAIT_MS;
    while (Date.now() < deadline) {
      await sleep(POLL_MS);
      if (await this.exists(key)) return true;
    }
    return false;
  }

  private read(key: string): Promise<string> {
    return shared(this.reads, key, () => this.store.getBuffer(key).then((b) => b.toString('utf8')));
  }

  private exists(key: string): Promise<boolean> {
    return shared(this.stats, key, async () => (await this.store.stat(key)) !== undefined);
  }
}

/** One store call per key and POLL_MS, whoever asks. */
function shared<T>(calls: Map<string, { at: number; value: Promise<T> }>, key: string, call: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const recent = calls.get(key);
  if (recent && now - recent.at < POLL_MS) return recent.value;
  const value = call();
  calls.delete(key);
  calls.set(key, { at: now, value });
  if (calls.size > MAX_SHARED) calls.delete(calls.keys().next().value!);
  return value;
}

/** The key of the part before `…_part00012.ts` (`…_part00011.ts`); undefined for a span's first part. */
function previousPart(key: string): string | undefined {
  const match = /^(.*_part)(\d+)(\.ts)$/.exec(key);
  if (!match || Number(match[2]) === 0) return undefined;
  return `${match[1]}${String(Number(match[2]) - 1).padStart(match[2].length, '0')}${match[3]}`;
}
