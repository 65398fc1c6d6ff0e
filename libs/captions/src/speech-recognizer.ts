import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { Cue } from './cues';
import { cuesFromUtterance, Utterance } from './utterance-cues';

const run = promisify(execFile);

/** libs/captions/speech/recognize.py (the same depth from src/ and from dist/). */
export const RECOGNIZE_SCRIPT = path.resolve(__dirname, '..', 'speech', 'recognize.py');
/** The recognizer's Python that scripts/infra/speech.sh makes in the checkout (the same path from src/ and dist/). */
export const CHECKOUT_SPEECH_PYTHON = path.resolve(__dirname, '..', '..', '..', '.cache', 'speech', 'venv', 'bin', 'python');

/** SPEECH_PYTHON when set, else the checkout's environment when it exists, else `python3`. */
export function speechPython(configured: string | undefined): string {
  return configured ?? (fs.existsSync(CHECKOUT_SPEECH_PYTHON) ? CHECKOUT_SPEECH_PYTHON : 'python3');
}
/** What the recognizer reads: 16 kHz mono signed 16-bit little-endian PCM. */
export const PCM_SAMPLE_RATE = 16_000;
export const PCM_BYTES_PER_SECOND = PCM_SAMPLE_RATE * 2;

export type RecognizerMessage = { utterance: Utterance } | { settled: number } | { done: number };

/** One line of recognize.py's output; undefined for anything else. */
export function parseRecognizerLine(line: string): RecognizerMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m.settled === 'number') return { settled: m.settled };
  if (typeof m.done === 'number') return { done: m.done };
  const u = m.utterance as { start?: unknown; end?: unknown; words?: unknown } | undefined;
  if (u && typeof u.start === 'number' && typeof u.end === 'number' && Array.isArray(u.words)) {
    const words = (u.words as unknown[])
      .filter((w): w is [string, number, number] => Array.isArray(w) && typeof w[0] === 'string' && typeof w[1] === 'number' && typeof w[2] === 'number')
      .map(([text, start, end]) => ({ text, start, end }));
    return { utterance: { start: u.start, end: u.end, words } };
  }
  return undefined;
}

export interface RecognizerHandlers {
  onUtterance(utterance: Utterance): void;
  /** No utterance still to come starts before this time (seconds of audio). */
  onSettled(seconds: number): void;
}

/**
 * One run of the offline recognizer (PocketSphinx, in a Python child process): PCM in with
 * `write`, utterances and progress out through the handlers, `end` when the audio is over.
 * `maxUtterance` cuts long utterances so live captions never wait for a pause (0: never).
 */
export class SpeechRecognizer {
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private stderr = '';
  private heard?: number;

  constructor(
    pythonPath: string,
    maxUtterance: number,
    private readonly handlers: RecognizerHandlers,
  ) {
    this.child = spawn(pythonPath, ['-u', RECOGNIZE_SCRIPT, '--max-utterance', String(maxUtterance)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin!.on('error', () => undefined); // a recognizer that died is reported by end()
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString('utf8')).slice(-2000)));
    readline.createInterface({ input: this.child.stdout! }).on('line', (line) => this.receive(line));
    this.exited = new Promise((resolve) => {
      this.child.once('error', (err) => {
        this.stderr += err.message;
        resolve(null);
      });
      this.child.once('close', (code) => resolve(code));
    });
  }

  /** Feeds audio; waits while the recognizer is behind. */
  async write(pcm: Buffer): Promise<void> {
    const stdin = this.child.stdin!;
    if (stdin.destroyed || !stdin.writable) return;
    if (!stdin.write(pcm))
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off('drain', done);
          stdin.off('close', done);
          resolve();
        };
        stdin.once('drain', done).once('close', done);
      });
  }

  /** The audio is over: the last utterances come out. Resolves the seconds heard; rejects when the recognizer failed. */
  async end(): Promise<number> {
    this.child.stdin!.end();
    const code = await this.exited;
    if (code !== 0 || this.heard === undefined)
      throw new Error(`speech recognizer failed (exit ${code}): ${this.stderr.trim().split('\n').slice(-3).join(' ')}`);
    return this.heard;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  private receive(line: string): void {
    const message = parseRecognizerLine(line);
    if (!message) return;
    if ('utterance' in message) this.handlers.onUtterance(message.utterance);
    else if ('settled' in message) this.handlers.onSettled(message.settled);
    else if ('done' in message) {
      this.heard = message.done;
      this.handlers.onSettled(message.done);
    }
  }
}

/** ffmpeg arguments that decode a file's first audio stream into the recognizer's PCM, on stdout unless `output` names a file. */
export function pcmArgs(file: string, output = 'pipe:1'): string[] {
  return ['-v', 'error', '-i', file, '-map', '0:a:0', '-vn', '-ac', '1', '-ar', String(PCM_SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 's16le', output];
}

/** PCM cut or padded with silence to exactly `seconds`, so audio fed segment by segment keeps the playlist's timeline. */
export function fitPcm(pcm: Buffer, seconds: number): Buffer {
  const bytes = Math.max(0, Math.round(seconds * PCM_SAMPLE_RATE)) * 2;
  if (pcm.length === bytes) return pcm;
  if (pcm.length > bytes) return pcm.subarray(0, bytes);
  return Buffer.concat([pcm, Buffer.alloc(bytes - pcm.length)]);
}

/** A segment's audio as the recognizer's PCM, exactly `seconds` long (silence when it has no audio). */
export async function segmentPcm(ffmpegPath: string, file: string, seconds: number): Promise<Buffer> {
  try {
    const { stdout } = await run(ffmpegPath, pcmArgs(file), { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    return fitPcm(stdout, seconds);
  } catch {
    return fitPcm(Buffer.alloc(0), seconds); // no audio stream: nothing was said
  }
}

/** Whether `pythonPath` runs and has PocketSphinx (and so generated subtitles can be made). */
export async function recognizerAvailable(pythonPath: string): Promise<boolean> {
  try {
    await run(pythonPath, ['-c', 'import pocketsphinx'], { timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** How much PCM is handed to the recognizer at a time when a whole file is heard. */
const FILE_CHUNK_BYTES = 64 * 1024;

/**
 * The cues of a whole recording: a file of the recognizer's PCM heard in one run, utterances never cut
 * at a fixed length (as generated_live_final hears a closed recording). Aborting `signal` kills the
 * recognizer and rejects with its reason.
 */
export async function transcribePcmFile(pythonPath: string, file: string, signal?: AbortSignal): Promise<{ cues: Cue[]; seconds: number }> {
  signal?.throwIfAborted();
  const cues: Cue[] = [];
  const recognizer = new SpeechRecognizer(pythonPath, 0, { onUtterance: (u) => cues.push(...cuesFromUtterance(u)), onSettled: () => undefined });
  const onAbort = () => recognizer.kill();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: FILE_CHUNK_BYTES })) {
      signal?.throwIfAborted();
      await recognizer.write(chunk as Buffer);
    }
    const seconds = await recognizer.end();
    signal?.throwIfAborted();
    return { cues, seconds };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    recognizer.kill();
  }
}
