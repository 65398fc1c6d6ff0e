import { ChildProcess, spawn } from 'node:child_process';
import { readUntil } from '@platform/testing';
import { FFMPEG } from './media';

/** A port of the platform (from the env global setup started it with). */
function platformPort(name: 'RTMP_PORT' | 'SRT_PORT'): string {
  const env = JSON.parse(process.env.E2E_PLATFORM_ENV ?? '{}') as Record<string, string>;
  if (!env[name]) throw new Error(`E2E_PLATFORM_ENV has no ${name}`);
  return env[name];
}

export const rtmpPort = (): string => platformPort('RTMP_PORT');

export interface Encoder {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) when ffmpeg ends. */
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export interface EncoderOptions {
  /** Test pattern size; default 640x360. */
  size?: string;
  port?: string;
  /** A filtergraph from `[0:v]` to `[v]` applied to the pattern (e.g. libs/testing's barcodeFilter). */
  videoFilter?: string;
  /** Key frame interval in frames; default 60 (2 s). */
  gop?: number;
  /** `hevc`: H.265 (libx265) instead of H.264; over SRT only (FLV has no HEVC). */
  codec?: 'h264' | 'hevc';
}

/** ffmpeg as an encoder: a live test pattern and tone, pushed in real time over RTMP to /app/{key}. */
export function pushRtmp(streamKey: string, options: EncoderOptions = {}): Encoder {
  return encode(options, ['-f', 'flv', `rtmp://127.0.0.1:${options.port ?? rtmpPort()}/app/${streamKey}`]);
}

/** The same encoder over SRT, Mux's way: `srt://host:SRT_PORT?streamid={stream_key}&passphrase={srt_passphrase}` (MPEG-TS). */
export function pushSrt(streamKey: string, passphrase: string | undefined, options: EncoderOptions = {}): Encoder {
  const query = new URLSearchParams({ streamid: streamKey, ...(passphrase !== undefined ? { passphrase } : {}) });
  return encode(options, ['-f', 'mpegts', `srt://127.0.0.1:${options.port ?? platformPort('SRT_PORT')}?${query.toString()}`]);
}

/** An H.264 elementary stream (as made by captionedVideo) pushed in real time with a tone, video stream-copied. */
export function pushRtmpFile(streamKey: string, h264: string): Encoder {
  return spawnEncoder([
    '-v',
    'error',
    '-re',
    '-f',
    'h264',
    '-framerate',
    '30',
    '-i',
    h264,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-c:v',
    'copy',
    '-c:a',
    'aac',
    '-ac',
    '2',
    '-shortest',
    '-f',
    'flv',
    `rtmp://127.0.0.1:${rtmpPort()}/app/${streamKey}`,
  ]);
}

function encode({ size, videoFilter, gop, codec }: EncoderOptions, output: string[]): Encoder {
  const video =
    codec === 'hevc'
      ? ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', `keyint=${gop ?? 60}:min-keyint=${gop ?? 60}:log-level=error`]
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', String(gop ?? 60)];
  return spawnEncoder([
    '-v',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size ?? '640x360'}:rate=30`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    ...(videoFilter ? ['-filter_complex', videoFilter, '-map', '[v]', '-map', '1:a'] : []),
    ...video,
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-ac',
    '2',
    ...output,
  ]);
}

export function spawnEncoder(args: string[]): Encoder {
  const child = spawn(FFMPEG, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Whether the encoder's ffmpeg ends (it was dropped) within `ms`. */
export async function endsWithin(encoder: Encoder, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), ms)));
  const outcome = await Promise.race([encoder.exited.then(() => 'ended' as const), timeout]);
  clearTimeout(timer);
  return outcome === 'ended';
}

/**
 * Waits until `check` holds (or the time runs out) and returns its last value: @platform/testing's `readUntil`
 * at the pace of the e2e tests (a read every 200 ms, 20 s unless told).
 */
export function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  return readUntil(read, check, { timeoutMs, intervalMs: 200 });
}

export interface RtmpReceiver {
  /** What the receiver wrote (FLV). */
  file: string;
  exited: Promise<number | null>;
  /** Kills it at once, as a crashed third-party server would go. */
  kill(): Promise<void>;
}

/**
 * A second, independent RTMP server standing in for a third-party service: ffmpeg listening at
 * rtmp://127.0.0.1:{port}/{app}/{key}; it takes one publisher and writes what it receives to `file`.
 */
export function receiveRtmp(port: number, app: string, key: string, file: string): RtmpReceiver {
  const child = spawn(
    FFMPEG,
    ['-v', 'error', '-listen', '1', '-timeout', '120', '-i', `rtmp://127.0.0.1:${port}/${app}/${key}`, '-c', 'copy', '-y', '-f', 'flv', file],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    file,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
