import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stopProcess } from './virtual-display';

export interface AudioSink {
  /** `unix:<dir>/native`: for PULSE_SERVER (the browser) and ffmpeg's `-server`. */
  server: string;
  /** The null sink the browser plays into; ffmpeg records `<sink>.monitor`. */
  sink: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export const SINK_NAME = 'capture';

/**
 * A private PulseAudio daemon for one job with one null sink: the page's sound goes nowhere but the sink's
 * monitor, no sound card or kernel module needed, and nothing shared between jobs to leak (LiveKit egress
 * had to reap orphaned sinks of a shared daemon). Its socket and state live in `dir`.
 */
export async function startAudioSink(dir: string, timeoutMs = 10_000): Promise<AudioSink> {
  fs.mkdirSync(dir, { recursive: true });
  const socket = path.join(dir, 'native');
  const pulse = spawn(
    'pulseaudio',
    [
      '-n',
      '--daemonize=no',
      '--exit-idle-time=-1',
      '--disallow-exit',
      '--use-pid-file=no',
      '--log-target=stderr',
      '--log-level=error',
      `--load=module-native-protocol-unix socket=${socket} auth-anonymous=1`,
      `--load=module-null-sink sink_name=${SINK_NAME} rate=48000 channels=2`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, HOME: dir, XDG_RUNTIME_DIR: dir, XDG_CONFIG_HOME: dir } },
  );
  let stderr = '';
  pulse.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const exited = new Promise<never>((_, reject) => {
    pulse.once('error', (err) => reject(new Error(`pulseaudio could not start (apt package pulseaudio): ${err.message}`)));
    pulse.once('exit', (code) => reject(new Error(`pulseaudio exited (${code}): ${stderr.trim()}`)));
  });
  const ready = (async () => {
    const deadline = Date.now() + timeoutMs;
    while (!fs.existsSync(socket)) {
      if (Date.now() > deadline) throw new Error(`pulseaudio made no socket within ${timeoutMs} ms: ${stderr.trim()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  ready.catch(() => undefined); // settled by the race below when pulseaudio exits first
  try {
    await Promise.race([ready, exited]);
  } catch (err) {
    pulse.kill('SIGKILL');
    throw err;
  }
  exited.catch(() => undefined);
  return { server: `unix:${socket}`, sink: SINK_NAME, process: pulse, stop: () => stopProcess(pulse, 'SIGTERM', 3000) };
}
