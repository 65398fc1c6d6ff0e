import { SpanPackager } from './hls-packager';
import { MediaFacts } from './media/media-probe';

/** How long a span that must wait for those before it (low latency) waits for them to end. */
const SPANS_SETTLE_MS = 10_000;

/**
 * The spans of one recording being packaged or ending, and the one queue their segments and parts are
 * listed on (one at a time, in the order they are handed over).
 */
export class SpanRunner {
  private readonly packagers = new Map<SpanPackager, number>();
  private readonly finishing = new Set<Promise<void>>();
  private adding: Promise<void> = Promise.resolve();

  constructor(private readonly warn: (message: string) => void) {}

  /** Runs `task` after what is queued. The queue goes on past a failure (told to `warn`); the caller gets the task's own outcome. */
  queue(task: () => Promise<void>): Promise<void> {
    const run = this.adding.then(task);
    this.adding = run.catch((err: unknown) => this.warn(`listing the recording: ${err instanceof Error ? err.message : String(err)}`));
    return run;
  }

  /** A span's packager runs. */
  track(packager: SpanPackager, span: number): void {
    this.packagers.set(packager, span);
  }

  /** The packagers still running. */
  running(): SpanPackager[] {
    return [...this.packagers.keys()];
  }

  /** Stops a span's packager; `after` runs once its last segments are handed over. Nothing for a packager not running. */
  end(packager: SpanPackager, after: (facts: MediaFacts, span: number) => Promise<void>): Promise<void> {
    const span = this.packagers.get(packager);
    if (span === undefined) return Promise.resolve();
    this.packagers.delete(packager);
    const done = packager.finish().then((facts) => after(facts, span));
    this.finishing.add(done);
    return done.finally(() => this.finishing.delete(done));
  }

  /** Everything queued so far is listed (or failed). */
  async settledQueue(): Promise<void> {
    await this.adding;
  }

  /** Every span that was ending has ended and everything queued is listed. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.finishing]);
    await this.adding;
  }

  /**
   * Waits until no other span runs or ends (at most SPANS_SETTLE_MS): for low latency, whose parts of two
   * spans must not interleave at the live edge (an encoder that reconnects at once waits for its former
   * session's ffmpeg to stop).
   */
  async othersEnded(): Promise<void> {
    const deadline = Date.now() + SPANS_SETTLE_MS;
    while (Date.now() < deadline) {
      await Promise.allSettled([...this.finishing]);
      if (this.packagers.size === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
