import { HttpStatus, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { MediaRunner, PipeRunOptions, resolveMediaBinaries } from '@platform/media';
import { PlaybackError } from '../playback-host/playback-error';

/** Longest an image's ffmpeg may run; a stuck one is stopped and the request fails (503). */
const RENDER_TIMEOUT_MS = 30_000;
/** Renders waiting for a slot beyond this are refused at once (503 with Retry-After) rather than queued. */
const MAX_WAITING = 64;

/**
 * The image host's process adapter: ffmpeg (found as the transcoder finds it) run through the shared
 * MediaRunner, at most IMAGE_RENDER_CONCURRENCY at a time per process, each bounded in time. Images are
 * made on request, so a burst of them waits its turn instead of starting an ffmpeg each.
 */
@Injectable()
export class ImageRenderer implements OnApplicationBootstrap {
  private readonly logger = new Logger('ImageHost');
  private runner?: Promise<MediaRunner>;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

  onApplicationBootstrap(): void {
    this.tools().catch(() => undefined); // logged in tools()
  }

  /** Runs ffmpeg on `input` and returns what it wrote (an image, a raw frame). */
  async render(args: string[], input: PipeRunOptions['input']): Promise<Buffer> {
    const runner = await this.tools();
    return this.inSlot(() => runner.ffmpegPipe(args, { input, signal: AbortSignal.timeout(RENDER_TIMEOUT_MS) }));
  }

  /**
   * Two ffmpeg runs in one slot, the second started at once with its input given later: a frame is decoded
   * by the first while the second (the encoder) starts up, which hides its start-up time.
   */
  async renderThrough(first: { args: string[]; input: PipeRunOptions['input'] }, second: string[], between: (output: Buffer) => Buffer): Promise<Buffer> {
    const runner = await this.tools();
    return this.inSlot(async () => {
      const signal = AbortSignal.timeout(RENDER_TIMEOUT_MS);
      let hand: (chunk: Buffer) => void = () => undefined;
      let fail: (err: unknown) => void = () => undefined;
      const handed = new Promise<Buffer>((resolve, reject) => {
        hand = resolve;
        fail = reject;
      });
      handed.catch(() => undefined); // the encoder's input reader rejects with it
      const encoded = runner.ffmpegPipe(second, { input: onceReady(handed), signal });
      encoded.catch(() => undefined); // awaited below; an early failure is not unhandled meanwhile
      try {
        hand(between(await runner.ffmpegPipe(first.args, { input: first.input, signal })));
      } catch (err) {
        fail(err);
        await encoded.catch(() => undefined);
        throw err;
      }
      return encoded;
    });
  }

  private tools(): Promise<MediaRunner> {
    this.runner ??= resolveMediaBinaries(this.config.media).then(
      ({ ffmpeg, ffprobe }) => {
        this.logger.log(`images made with ${ffmpeg.path} (${ffmpeg.source}): ${ffmpeg.version}`);
        return new MediaRunner({ ffmpeg: ffmpeg.path, ffprobe: ffprobe.path });
      },
      (err: unknown) => {
        this.runner = undefined; // found again on the next request: installing ffmpeg needs no restart
        this.logger.error(`ffmpeg unavailable, no image can be made: ${err instanceof Error ? err.message : String(err)}`);
        throw new PlaybackError(HttpStatus.SERVICE_UNAVAILABLE, 'Images are unavailable: the image host has no ffmpeg');
      },
    );
    return this.runner;
  }

  private async inSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.config.images.renderConcurrency) {
      if (this.waiting.length >= MAX_WAITING) {
        throw new PlaybackError(HttpStatus.SERVICE_UNAVAILABLE, 'Too many images are being made: try again shortly', { 'retry-after': '1' });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

async function* onceReady(chunk: Promise<Buffer>): AsyncIterable<Buffer> {
  yield await chunk;
}
