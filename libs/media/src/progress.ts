/** One report of `ffmpeg -progress pipe:1`. */
export interface MediaProgress {
  /** Output position, seconds (0 until ffmpeg knows it). */
  outTimeSeconds: number;
  /** outTimeSeconds / the expected duration, within 0..1; absent without a duration. */
  fraction?: number;
  /** Encoding speed as a multiple of real time (`2.5` for `2.5x`), when ffmpeg reports it. */
  speed?: number;
  /** True for the last report (`progress=end`). */
  done: boolean;
}

/**
 * Parses the key=value blocks ffmpeg writes with `-progress`: each block ends with `progress=continue`
 * or `progress=end`. Chunks may split lines anywhere. The output time is read from `out_time_us`, else
 * `out_time` (HH:MM:SS.micro), else `out_time_ms` (which ffmpeg fills in microseconds too); negative or
 * `N/A` values (before the first frame) count as 0.
 */
export class ProgressParser {
  private partial = '';
  private block = new Map<string, string>();

  constructor(
    private readonly onProgress: (progress: MediaProgress) => void,
    private readonly durationSeconds?: number,
  ) {}

  push(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line.trim());
  }

  private line(line: string): void {
    const eq = line.indexOf('=');
    if (eq <= 0) return;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1).trim();
    if (key !== 'progress') {
      this.block.set(key, value);
      return;
    }
    const outTimeSeconds = outTimeOf(this.block);
    const speed = Number.parseFloat(this.block.get('speed') ?? '');
    const done = value === 'end';
    const progress: MediaProgress = { outTimeSeconds, done };
    if (this.durationSeconds && this.durationSeconds > 0) {
      progress.fraction = done ? 1 : Math.min(1, outTimeSeconds / this.durationSeconds);
    }
    if (Number.isFinite(speed)) progress.speed = speed;
    this.block = new Map();
    this.onProgress(progress);
  }
}

function outTimeOf(block: Map<string, string>): number {
  const micros = Number(block.get('out_time_us'));
  if (block.has('out_time_us') && Number.isFinite(micros)) return Math.max(0, micros / 1e6);
  const clock = /^(-?)(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(block.get('out_time') ?? '');
  if (clock) return clock[1] === '-' ? 0 : Number(clock[2]) * 3600 + Number(clock[3]) * 60 + Number(clock[4]);
  const legacy = Number(block.get('out_time_ms'));
  if (block.has('out_time_ms') && Number.isFinite(legacy)) return Math.max(0, legacy / 1e6);
  return 0;
}
