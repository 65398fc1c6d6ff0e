import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { LatencyMode } from '../live-streams/live-stream.entity';
import { MediaFacts, probeMedia } from './media/media-probe';
import { stopPackagerProcess } from './packager-process';

/** Segment length per latency mode (seconds; segments are cut at the encoder's key frames). */
export const SEGMENT_SECONDS: Record<LatencyMode, number> = { standard: 4, reduced: 2, low: 1 };
const COLLECT_EVERY_MS = 300;

export interface PackagerOptions {
  ffmpegPath: string;
  ffprobePath: string;
  /** ffmpeg's whole argument list (media/packager-args.ts). */
  args: string[];
  /** Each rung's folder, the encoder's own first (the work folder): where ffmpeg writes its segments and playlist. */
  rungDirs: string[];
  /** Segment and playlist names start with it, so the spans of one recording never collide. */
  segmentPrefix: string;
  /** Called once per finished segment (present in every rung), in order (awaited before the next). */
  onSegment(segment: FinishedSegment): Promise<void>;
  /** Told when the span ends with segments some rung lacks (they are left out). */
  warn?(message: string): void;
}

/** What runs one span of a recording (HlsPackager, or PartsPackager for low latency). */
export interface SpanPackager {
  start(): Promise<void>;
  /** Ends the span once its last segments are handed over; what its first segment showed. */
  finish(): Promise<MediaFacts>;
}

/** One segment of the span in every rung: the same name and instants in each rung's folder. */
export interface FinishedSegment {
  name: string;
  duration: number;
  /** The segment of each rung, the encoder's own first. */
  files: Array<{ file: string; bytes: number }>;
  /** What the span's first segment showed (ffprobe of the top rung's). */
  facts: MediaFacts;
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
 * the local RTMP server) or slate while the encoder is away, one ffmpeg writing every rung. A segment
 * is handed to `onSegment` (which stores it) once every rung's playlist lists it: the rungs are cut at
 * the same key frames, so one name stands for the same instants in each. The playlists players see
 * are the recording's (LiveRecording), which span reconnects.
 */
export class HlsPackager implements SpanPackager {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private readonly handed = new Set<string>();
  private collecting: Promise<void> = Promise.resolve();
  private facts?: MediaFacts;

  constructor(private readonly options: PackagerOptions) {}

  async start(): Promise<void> {
    await Promise.all(this.options.rungDirs.map((dir) => fsp.mkdir(dir, { recursive: true })));
    const child = spawn(this.options.ffmpegPath, this.options.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.resume();
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.timer = setInterval(() => this.collectSoon(), COLLECT_EVERY_MS);
  }

  /** Ends the span: ffmpeg stops (stopPackagerProcess), its last segments are handed over. Returns what the first segment showed. */
  async finish(): Promise<MediaFacts> {
    clearInterval(this.timer);
    await stopPackagerProcess(this.child, this.exited);
    await this.collecting;
    await this.collect(true);
    return this.facts ?? {};
  }

  private collectSoon(): void {
    this.collecting = this.collecting.then(() => this.collect(false)).catch(() => undefined);
  }

  private async collect(final: boolean): Promise<void> {
    const { rungDirs, segmentPrefix } = this.options;
    const playlists = await Promise.all(
      rungDirs.map((dir) => fsp.readFile(path.join(dir, `${segmentPrefix}index.m3u8`), 'utf8').then(parseMediaPlaylist, () => undefined)),
    );
    const top = playlists[0];
    if (!top) return;
    for (const [i, name] of top.segments.entries()) {
      if (this.handed.has(name)) continue;
      const files = rungDirs.map((dir) => path.join(dir, name));
      const ready = playlists.every((p) => p?.segments.includes(name)) && files.every((f) => fs.existsSync(f));
      if (!ready) {
        if (final) this.options.warn?.(`${top.segments.length - i} last segment(s) of ${segmentPrefix} missing from a rung were left out`);
        return;
      }
      const durations = playlists.map((p) => p!.durations[p!.segments.indexOf(name)]);
      if (durations.some((d) => Math.abs(d - top.durations[i]) > 0.25)) {
        this.options.warn?.(`${name}: the rungs were cut at different instants (${durations.join(' s, ')} s): their key frames are not aligned`);
      }
      if (!this.facts) this.facts = await probeMedia(this.options.ffprobePath, files[0]);
      const sized = await Promise.all(files.map(async (file) => ({ file, bytes: (await fsp.stat(file)).size })));
      await this.options.onSegment({ name, duration: top.durations[i], files: sized, facts: this.facts });
      this.handed.add(name);
    }
  }
}
