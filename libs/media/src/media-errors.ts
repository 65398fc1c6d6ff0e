export type MediaTool = 'ffmpeg' | 'ffprobe';

/** ffmpeg/ffprobe could not start, or ended with a non-zero status or a signal. */
export class MediaProcessError extends Error {
  constructor(
    readonly tool: MediaTool,
    /** Exit status; null when the process was ended by a signal or never started. */
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    /** The last lines ffmpeg wrote to stderr (its own explanation). */
    readonly stderrTail: string,
    cause?: unknown,
  ) {
    const how = exitCode !== null ? `exited with status ${exitCode}` : signal ? `was killed by ${signal}` : 'could not be started';
    const detail = stderrTail || messageOf(cause);
    super(`${tool} ${how}${detail ? `: ${detail}` : ''}`, cause === undefined ? undefined : { cause });
    this.name = 'MediaProcessError';
  }
}

/** The run was stopped through its AbortSignal; `reason` is the signal's reason. */
export class MediaAbortedError extends Error {
  constructor(
    readonly tool: MediaTool,
    readonly reason: unknown,
  ) {
    super(`${tool} was stopped: ${messageOf(reason) || 'aborted'}`);
    this.name = 'MediaAbortedError';
  }
}

/** An error's message, also for errors made by Node's core (another realm under jest, so no instanceof). */
function messageOf(value: unknown): string {
  if (typeof (value as Error | undefined)?.message === 'string') return (value as Error).message;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === undefined || value === null ? '' : (JSON.stringify(value) ?? '');
}
