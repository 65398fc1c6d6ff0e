import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MediaAbortedError, MediaProcessError, MediaTool } from './media-errors';
import { MediaProgress, ProgressParser } from './progress';

export interface MediaBinaries {
  ffmpeg: string;
  ffprobe: string;
}

export interface RunOptions {
  /** Aborting sends SIGTERM (ffmpeg stops cleanly), then SIGKILL after the grace period. */
  signal?: AbortSignal;
  /** Called with the child's pid once it runs (the worker records it to end orphans after a crash). */
  onSpawn?: (pid: number) => void;
}

export interface FfmpegRunOptions extends RunOptions {
  /** Reports of `-progress pipe:1` (the arguments must ask for them, as every builder here does). */
  onProgress?: (progress: MediaProgress) => void;
  /** Expected output duration, seconds, for `MediaProgress.fraction`. */
  durationSeconds?: number;
}

export interface PipeRunOptions extends RunOptions {
  /** Bytes written to ffmpeg's stdin (then closed): a buffer, or chunks as they come. */
  input?: Buffer | AsyncIterable<Buffer>;
  /** Most bytes of stdout kept; more stops ffmpeg with an error. Default 64 MiB. */
  maxOutputBytes?: number;
}

export interface MediaRunnerOptions {
  /** Between SIGTERM and SIGKILL on abort; default 3000 ms. */
  killGraceMs?: number;
  /** Largest ffprobe JSON read whole; default 64 MiB. */
  maxJsonBytes?: number;
}

const STDERR_TAIL_CHARS = 4096;
/** What `ffmpegLog` keeps of stderr: the end, where filters print their figures when they close. */
const LOG_TAIL_CHARS = 64 * 1024;
const STDERR_TAIL_LINES = 3;

/**
 * The one place that spawns ffmpeg/ffprobe (CONVENTIONS item 7): the exact argv of a builder, progress
 * from `-progress pipe:1`, abort through an AbortSignal, the end of stderr kept for error messages, and a
 * typed rejection on any non-zero end.
 */
export class MediaRunner {
  constructor(
    readonly binaries: MediaBinaries,
    private readonly options: MediaRunnerOptions = {},
  ) {}

  /** Runs ffmpeg to completion. */
  async ffmpeg(args: string[], options: FfmpegRunOptions = {}): Promise<void> {
    const parser = options.onProgress ? new ProgressParser(options.onProgress, options.durationSeconds) : undefined;
    await this.run('ffmpeg', args, options, (chunk) => parser?.push(chunk.toString('utf8')));
  }

  /** Runs ffmpeg to completion and returns the end of what it logged (a measuring filter's report). */
  ffmpegLog(args: string[], options: RunOptions = {}): Promise<string> {
    return this.run('ffmpeg', args, options, () => undefined, LOG_TAIL_CHARS);
  }

  /**
   * Runs ffmpeg with `input` on stdin and resolves with everything it wrote to stdout (an image, a frame):
   * arguments that read `pipe:0` and write `pipe:1`. ffmpeg closing stdin early (it had all it needed) is
   * not an error.
   */
  async ffmpegPipe(args: string[], options: PipeRunOptions = {}): Promise<Buffer> {
    const max = options.maxOutputBytes ?? 64 * 1024 * 1024;
    const chunks: Buffer[] = [];
    let length = 0;
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    await this.run(
      'ffmpeg',
      args,
      { ...options, signal },
      (chunk) => {
        length += chunk.length;
        if (length > max) controller.abort(new Error(`ffmpeg wrote more than ${max} bytes`));
        else chunks.push(chunk);
      },
      STDERR_TAIL_CHARS,
      options.input ?? Buffer.alloc(0),
    );
    return Buffer.concat(chunks);
  }

  /** Runs ffprobe and parses what it printed as JSON. */
  async probeJson<T>(args: string[], options: RunOptions = {}): Promise<T> {
    const max = this.options.maxJsonBytes ?? 64 * 1024 * 1024;
    const chunks: string[] = [];
    let length = 0;
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    await this.run('ffprobe', args, { ...options, signal }, (chunk) => {
      length += chunk.length;
      if (length > max) controller.abort(new Error(`ffprobe printed more than ${max} bytes`));
      else chunks.push(chunk.toString('utf8'));
    });
    try {
      return JSON.parse(chunks.join('')) as T;
    } catch (err) {
      throw new MediaProcessError('ffprobe', 0, null, 'its output is not JSON', err);
    }
  }

  /** Runs ffprobe and hands its output over line by line (for outputs too long to hold). */
  async probeLines(args: string[], onLine: (line: string) => void, options: RunOptions = {}): Promise<void> {
    let partial = '';
    await this.run('ffprobe', args, options, (chunk) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    if (partial) onLine(partial);
  }

  /** Resolves with the last `keepChars` of stderr. With `input`, stdin gets it. */
  private run(
    tool: MediaTool,
    args: string[],
    options: RunOptions,
    onStdout: (chunk: Buffer) => void,
    keepChars = STDERR_TAIL_CHARS,
    input?: Buffer | AsyncIterable<Buffer>,
  ): Promise<string> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new MediaAbortedError(tool, signal.reason));
    return new Promise((resolve, reject) => {
      // stdin is always a pipe: closed at once without input (EOF, as /dev/null would be)
      const child = spawn(this.binaries[tool], args, { stdio: ['pipe', 'pipe', 'pipe'] });
      writeInput(child.stdin, input ?? Buffer.alloc(0));
      let stderr = '';
      let spawnError: Error | undefined;
      let killTimer: NodeJS.Timeout | undefined;
      let closeTimer: NodeJS.Timeout | undefined;

      const onAbort = () => {
        child.kill('SIGTERM');
        killTimer = setTimeout(() => child.kill('SIGKILL'), this.options.killGraceMs ?? 3000);
        killTimer.unref();
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      child.stdout.on('data', (chunk: Buffer) => onStdout(chunk));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-keepChars);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) options.onSpawn?.(child.pid);
      });
      child.once('error', (err) => {
        spawnError = err;
      });
      // A grandchild that inherited stdout would keep 'close' from ever firing: stop waiting for it.
      child.once('exit', () => {
        closeTimer = setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
        }, 500);
        closeTimer.unref();
      });
      child.once('close', (code, killedBy) => {
        signal?.removeEventListener('abort', onAbort);
        if (killTimer) clearTimeout(killTimer);
        if (closeTimer) clearTimeout(closeTimer);
        if (signal?.aborted) reject(new MediaAbortedError(tool, signal.reason));
        else if (spawnError) reject(new MediaProcessError(tool, null, null, '', spawnError));
        else if (code !== 0) reject(new MediaProcessError(tool, code, killedBy, tailOf(stderr)));
        else resolve(stderr);
      });
    });
  }
}

/**
 * Feeds stdin and closes it. A process that exits before reading it all (ffmpeg once it has its frame)
 * makes the pipe fail with EPIPE: that is its choice, not an error; its exit status tells.
 */
function writeInput(stdin: Writable, input: Buffer | AsyncIterable<Buffer>): void {
  stdin.on('error', () => undefined);
  if (Buffer.isBuffer(input)) {
    stdin.end(input);
    return;
  }
  pipeline(Readable.from(input), stdin).catch(() => undefined);
}

/** The last few non-empty lines of stderr, as one line. */
function tailOf(stderr: string): string {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-STDERR_TAIL_LINES)
    .join(' / ');
}
