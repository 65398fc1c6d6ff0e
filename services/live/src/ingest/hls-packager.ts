import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { LatencyMode } from '../live-streams/live-stream.entity';

const run = promisify(execFile);

/** Segment length per latency mode (seconds; segments are cut at the encoder's key frames). */
export const SEGMENT_SECONDS: Record<LatencyMode, number> = { standard: 4, reduced: 2, low: 1 };
const COLLECT_EVERY_MS = 300;
/** How long a stopping ffmpeg gets to write its last segment before it is killed. */
const FINISH_MS = 5000;

export interface PackagerOptions {
  ffmpegPath: string;
  ffprobePath: string;
  /** ffmpeg's input and codec arguments (what comes before the HLS output): see contentInput, slateInput. */
  input: string[];
  workDir: string;
  /** Segment file names start with it, so the sessions of one recording never collide. */
  segmentPrefix: string;
  latencyMode: LatencyMode;
  /** Called once per finished segment, in order (awaited before the next). */
  onSegment(segment: FinishedSegment): Promise<void>;
}

export interface FinishedSegment {
  name: string;
  file: string;
  duration: number;
  bytes: number;
  /** What the session's first segment showed (ffprobe). */
  facts: MediaFacts;
}

export interface MediaFacts {
  video?: { width: number; height: number; frameRate?: number };
  audio?: { channels: number };
  /** Presentation time of the first packet (seconds): where a segmented subtitle track's timestamp map points. */
  startTime?: number;
}

/** The encoder's stream pulled back from the local RTMP server, stream-copied (its audio only, for an `audio_only` stream). */
export function contentInput(sourceUrl: string, audioOnly = false): string[] {
  return ['-rw_timeout', '10000000', '-i', sourceUrl, ...(audioOnly ? ['-map', '0:a'] : []), '-c', 'copy'];
}

/** The segments a media playlist lists (with their durations), its total duration, and whether it is ended. */
export function parseMediaPlaylist(text: string): { segments: string[]; durations: number[]; duration: number; ended: boolean } {
  const segments: string[] = [];
  const durations: number[] = [];
  let pending = 0;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line.startsWith('#EXTINF:')) pending = Number.parseFloat(line.slice('#EXTINF:'.length)) || 0;
    else if (line !== '' && !line.startsWith('#')) {
      segments.push(line);
      durations.push(pending);
    }
  }
  const duration = Math.round(durations.reduce((a, b) => a + b, 0) * 1000) / 1000;
  return { segments, durations, duration, ended: text.includes('#EXT-X-ENDLIST') };
}

/**
 * One span of a recording into HLS segments: an encoder session (ffmpeg pulls the stream back from
 * the local RTMP server and stream-copies it) or slate while the encoder is away, in segments of the
 * latency mode's length; each finished segment (one ffmpeg has listed in its playlist) is handed to
 * `onSegment`, which stores it. The playlist players see is the recording's (LiveRecording), which
 * spans reconnects.
 */
export class HlsPackager {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private readonly handed = new Set<string>();
  private collecting: Promise<void> = Promise.resolve();
  private facts?: MediaFacts;

  constructor(private readonly options: PackagerOptions) {}

  async start(): Promise<void> {
    const { workDir, segmentPrefix } = this.options;
    await fsp.mkdir(workDir, { recursive: true });
    const child = spawn(
      this.options.ffmpegPath,
      [
        '-v',
        'error',
        ...this.options.input,
        '-f',
        'hls',
        '-hls_time',
        String(SEGMENT_SECONDS[this.options.latencyMode]),
        '-hls_list_size',
        '0',
        '-hls_playlist_type',
        'event',
        '-hls_flags',
        'independent_segments+temp_file',
        '-hls_segment_filename',
        path.join(workDir, `${segmentPrefix}%05d.ts`),
        path.join(workDir, `${segmentPrefix}index.m3u8`),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr?.resume();
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.timer = setInterval(() => this.collectSoon(), COLLECT_EVERY_MS);
  }

  /**
   * Ends the span: ffmpeg stops, its last segments are handed over. Returns what the first segment
   * showed. One SIGINT only stops ffmpeg between packets, and pulling from an RTMP server whose
   * publisher has left it waits in a read until -rw_timeout; a second SIGINT interrupts that read,
   * and ffmpeg still writes its last segment and the ended playlist (a third would make it exit
   * hard). SIGKILL after FINISH_MS.
   */
  async finish(): Promise<MediaFacts> {
    clearInterval(this.timer);
    const child = this.child;
    const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
    if (running()) {
      child!.kill('SIGINT');
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, 200))]);
      if (running()) child!.kill('SIGINT');
      const kill = setTimeout(() => running() && child!.kill('SIGKILL'), FINISH_MS);
      await this.exited;
      clearTimeout(kill);
    }
    await this.exited;
    await this.collecting;
    await this.collect();
    return this.facts ?? {};
  }

  private collectSoon(): void {
    this.collecting = this.collecting.then(() => this.collect()).catch(() => undefined);
  }

  private async collect(): Promise<void> {
    const { workDir, segmentPrefix } = this.options;
    const playlist = await fsp.readFile(path.join(workDir, `${segmentPrefix}index.m3u8`), 'utf8').catch(() => undefined);
    if (!playlist) return;
    const { segments, durations } = parseMediaPlaylist(playlist);
    for (const [i, name] of segments.entries()) {
      const file = path.join(workDir, name);
      if (this.handed.has(name) || !fs.existsSync(file)) continue;
      if (!this.facts) this.facts = await probeMedia(this.options.ffprobePath, file);
      await this.options.onSegment({ name, file, duration: durations[i], bytes: (await fsp.stat(file)).size, facts: this.facts });
      this.handed.add(name);
    }
  }
}

/** What ffprobe sees in a file (empty when it cannot read it). */
export async function probeMedia(ffprobePath: string, file: string): Promise<MediaFacts> {
  try {
    const { stdout } = await run(ffprobePath, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
    const { streams, format } = JSON.parse(stdout) as { streams: Array<Record<string, unknown>>; format?: { start_time?: string } };
    const v = streams.find((s) => s.codec_type === 'video');
    const a = streams.find((s) => s.codec_type === 'audio');
    const facts: MediaFacts = {};
    if (v) {
      const rate = v.avg_frame_rate ?? v.r_frame_rate;
      const [num, den] = (typeof rate === 'string' ? rate : '0/1').split('/').map(Number);
      facts.video = { width: Number(v.width), height: Number(v.height), ...(num && den ? { frameRate: Math.round((num / den) * 1000) / 1000 } : {}) };
    }
    if (a) facts.audio = { channels: Number(a.channels) };
    const startTime = Number.parseFloat(format?.start_time ?? '');
    if (Number.isFinite(startTime)) facts.startTime = startTime;
    return facts;
  } catch {
    return {}; // the recording still plays; its tracks are then unknown
  }
}
