import { ChildProcess, spawn } from 'node:child_process';
import { OutboundRefusedError } from '@platform/outbound';
import type { TargetState } from '../live-streams/simulcast-targets.service';

export interface RelayTarget {
  id: string;
  url: string;
  streamKey: string | null;
}

/** Where one attempt's ffmpeg publishes (its output arguments), and how to tear that down after. */
export interface RelayEndpoint {
  output: string[];
  close(): void;
}

export interface RelayOptions {
  ffmpegPath: string;
  /** Where the encoder's stream can be pulled (the local RTMP server's alias of the session). */
  sourceUrl: string;
  target: RelayTarget;
  /**
   * Prepares one attempt (the target resolved and checked, a local endpoint that holds its key).
   * OutboundRefusedError: the platform will not connect there (errored, fatal); any other error is
   * a normal one, retried.
   */
  open(): Promise<RelayEndpoint>;
  /** Each change of the target's status, in order (awaited before the next). */
  onState(state: TargetState): Promise<void>;
  /** Wait before retry number `attempt` (1, 2, …) after a normal error. */
  retryDelayMs?(attempt: number): number;
}

/** ffmpeg pulling the encoder's stream and pushing it unchanged (FLV) with `output` (options and URL); progress on stdout. */
export function relayArgs(sourceUrl: string, output: string[]): string[] {
  return [
    '-v',
    'error',
    '-nostats',
    '-progress',
    'pipe:1',
    '-stats_period',
    '0.5',
    '-rw_timeout',
    '5000000',
    '-i',
    sourceUrl,
    '-map',
    '0',
    '-c',
    'copy',
    '-f',
    'flv',
    ...output,
  ];
}

/**
 * Why a relay's ffmpeg failed, as spec 2.3's error_severity: `fatal` when the target cannot take this
 * input (a codec the FLV/RTMP container has no tag for), so no further attempts are made for the
 * recording; `normal` for anything else (connection refused, reset mid-broadcast), retried.
 */
export function severityOf(stderr: string): 'normal' | 'fatal' {
  return /not (currently )?supported in (this )?container|Could not find tag for codec|codec not currently supported/i.test(stderr) ? 'fatal' : 'normal';
}

/** Backoff between retries after a normal error: 1 s, 2 s, 4 s, … at most 15 s. */
export const defaultRetryDelayMs = (attempt: number): number => Math.min(15_000, 1000 * 2 ** (attempt - 1));

/**
 * One simulcast target of a live session: `starting` at once, `broadcasting` once ffmpeg writes to
 * the third party, `errored` (normal) when connecting fails or the connection drops, then retried
 * with backoff and back to `broadcasting` when it connects again; `errored` (fatal) stops trying.
 */
export class SimulcastRelay {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private retry?: NodeJS.Timeout;
  private stopped = false;
  private attempts = 0;
  private reported?: TargetState['status'];
  private reporting: Promise<void> = Promise.resolve();
  private fatal = false;

  constructor(private readonly options: RelayOptions) {}

  get targetId(): string {
    return this.options.target.id;
  }

  get isFatal(): boolean {
    return this.fatal;
  }

  start(): void {
    this.report({ status: 'starting' });
    this.spawn();
  }

  /** Ends the relay (the encoder left or the recording ended); no status is reported after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    const kill = setTimeout(() => child?.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(kill);
    await this.reporting;
  }

  private spawn(): void {
    void this.options.open().then(
      (endpoint) => {
        if (this.stopped) endpoint.close();
        else this.run(endpoint);
      },
      (err: unknown) => {
        if (this.stopped) return;
        if (err instanceof OutboundRefusedError) this.failed('fatal', `refused: ${err.reason}`);
        else this.failed('normal', err instanceof Error ? err.message : String(err));
      },
    );
  }

  private run(endpoint: RelayEndpoint): void {
    const { ffmpegPath, sourceUrl } = this.options;
    const child = spawn(ffmpegPath, relayArgs(sourceUrl, endpoint.output), { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.stdout?.on('data', (chunk: Buffer) => {
      const written = /out_time_us=(\d+)/g;
      for (const m of chunk.toString().matchAll(written)) if (Number(m[1]) > 0 && this.reported !== 'broadcasting') this.report({ status: 'broadcasting' });
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        endpoint.close();
        resolve();
        if (!this.stopped) this.failed(severityOf(stderr), lastLine(stderr));
      }),
    );
    child.once('error', () => undefined); // a missing binary also ends in 'exit'
  }

  private failed(severity: 'normal' | 'fatal', reason: string): void {
    this.report({ status: 'errored', severity, reason });
    if (severity === 'fatal') {
      this.fatal = true;
      return;
    }
    this.attempts += 1;
    const delay = (this.options.retryDelayMs ?? defaultRetryDelayMs)(this.attempts);
    this.retry = setTimeout(() => {
      if (!this.stopped) this.spawn();
    }, delay);
  }

  private report(state: TargetState): void {
    if (state.status === 'broadcasting') this.attempts = 0;
    this.reported = state.status;
    this.reporting = this.reporting.then(() => this.options.onState(state)).catch(() => undefined);
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}
