import { ChildProcess, spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { TsPart, TsPartCutter } from '@platform/media';
import { FinishedSegment, SpanPackager } from '../hls-packager';
import { MediaFacts, probeMedia } from '../media/media-probe';
import { stopPackagerProcess } from '../packager-process';
import { ListedPart, PartSegmenter, SegmentOfParts } from './part-segmenter';

/**
 * Parts last about this long (a part also ends before each key frame). Short parts are what brings the
 * player close to the edge: PART-HOLD-BACK is three part targets (0.75 s), the RFC's recommendation.
 */
export const PART_SECONDS = 0.22;
/**
 * EXT-X-PART-INF:PART-TARGET: no part is longer (the cutter ends one early rather than pass it), and parts
 * that do not end a segment are at least 0.22 s, the RFC's 85 % of it, at 20 frames a second or more.
 */
export const PART_TARGET_SECONDS = 0.25;

/** One part of the span in every rung: the same name and instants in each rung's folder. */
export interface FinishedPart extends ListedPart {
  /** The part of each rung, the encoder's own first. */
  files: Array<{ file: string; bytes: number }>;
  /** The name the part after it will have (EXT-X-PRELOAD-HINT). */
  next: string;
}

export interface PartsPackagerOptions {
  ffmpegPath: string;
  ffprobePath: string;
  /** ffmpeg's whole argument list, each rung written to pipe 3 + its index (packagerArgs with `output: 'pipes'`). */
  args: string[];
  /** Each rung's folder, the encoder's own first. */
  rungDirs: string[];
  /** Part and segment names start with it. */
  segmentPrefix: string;
  segmentSeconds: number;
  /** Called once per part present in every rung, in order (awaited before the next). */
  onPart(part: FinishedPart): Promise<void>;
  /** Called once per segment (its parts joined), before the part that follows it. */
  onSegment(segment: FinishedSegment, parts: SegmentOfParts): Promise<void>;
  warn?(message: string): void;
}

const partName = (prefix: string, n: number) => `${prefix}part${String(n).padStart(5, '0')}.ts`;
const segmentName = (prefix: string, n: number) => `${prefix}${String(n).padStart(5, '0')}.ts`;

/**
 * One span of a low-latency recording: ffmpeg writes each rung as MPEG-TS to a pipe, TsPartCutter cuts
 * each into parts as the bytes come (the rungs share key frames and frame times, so part n is the same
 * instants in each), every part is written and handed over at once (`onPart`: stored, listed with
 * EXT-X-PART), and whole parts make the segments (`onSegment`: the same segments the other latency
 * modes store, so the recording and the asset it becomes are alike).
 */
export class PartsPackager implements SpanPackager {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private readonly cutters: TsPartCutter[];
  /** Parts cut per rung and not yet handed over (part n is handed once every rung has it). */
  private readonly cut: TsPart[][];
  private readonly segmenter: PartSegmenter;
  private handing: Promise<void> = Promise.resolve();
  private parts = 0;
  private segments = 0;
  private readonly partFiles = new Map<string, FinishedPart>();
  private facts?: MediaFacts;
  private failed = false;
  /** Each rung's last part: its length is a guess (the rungs may stop a frame or two apart). */
  private readonly lastParts = new WeakSet<TsPart>();

  constructor(private readonly options: PartsPackagerOptions) {
    this.cutters = options.rungDirs.map(() => new TsPartCutter(PART_SECONDS, PART_TARGET_SECONDS));
    this.cut = options.rungDirs.map(() => []);
    this.segmenter = new PartSegmenter(options.segmentSeconds);
  }

  async start(): Promise<void> {
    await Promise.all(this.options.rungDirs.map((dir) => fsp.mkdir(dir, { recursive: true })));
    const pipes = this.options.rungDirs.map(() => 'pipe' as const);
    const child = spawn(this.options.ffmpegPath, this.options.args, { stdio: ['ignore', 'ignore', 'pipe', ...pipes] });
    child.stderr?.resume();
    this.child = child;
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    this.options.rungDirs.forEach((_, rung) => {
      const out = child.stdio[3 + rung] as NodeJS.ReadableStream;
      out.on('data', (chunk: Buffer) => this.received(rung, () => this.cutters[rung].push(chunk)));
    });
  }

  /** Ends the span: ffmpeg stops, the last parts and the last segment are handed over. Returns what the first part showed. */
  async finish(): Promise<MediaFacts> {
    await stopPackagerProcess(this.child, this.exited);
    this.cutters.forEach((cutter, rung) =>
      this.received(rung, () => {
        const last = cutter.end();
        if (!last) return [];
        this.lastParts.add(last);
        return [last];
      }),
    );
    await this.handing;
    const rest = this.cut.map((parts) => parts.length).filter((n) => n > 0);
    if (rest.length > 0) this.options.warn?.(`${Math.max(...rest)} last part(s) of ${this.options.segmentPrefix} missing from a rung were left out`);
    const last = this.segmenter.end();
    if (last) this.handing = this.handing.then(() => this.handSegment(last));
    await this.handing;
    return this.facts ?? {};
  }

  private received(rung: number, cutParts: () => TsPart[]): void {
    if (this.failed) return;
    try {
      this.cut[rung].push(...cutParts());
    } catch (err) {
      this.failed = true;
      this.options.warn?.(`${this.options.segmentPrefix}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    while (this.cut.every((parts) => parts.length > 0)) {
      const ofEachRung = this.cut.map((parts) => parts.shift()!);
      this.handing = this.handing.then(() => this.handPart(ofEachRung)).catch((err: unknown) => this.options.warn?.(`handing a part over: ${String(err)}`));
    }
  }

  private async handPart(ofEachRung: TsPart[]): Promise<void> {
    const [top] = ofEachRung;
    const last = ofEachRung.some((p) => this.lastParts.has(p));
    if (!last && ofEachRung.some((p) => Math.abs(p.duration - top.duration) > 0.05)) {
      this.options.warn?.(`part ${this.parts}: the rungs were cut at different instants (${ofEachRung.map((p) => p.duration.toFixed(3)).join(' s, ')} s)`);
    }
    const name = partName(this.options.segmentPrefix, this.parts++);
    const files = this.options.rungDirs.map((dir, i) => ({ file: path.join(dir, name), bytes: ofEachRung[i].bytes.length }));
    await Promise.all(files.map((f, i) => fsp.writeFile(f.file, ofEachRung[i].bytes)));
    const part: FinishedPart = { name, duration: top.duration, independent: top.independent, files, next: partName(this.options.segmentPrefix, this.parts) };
    this.facts ??= await probeMedia(this.options.ffprobePath, files[0].file);
    this.partFiles.set(name, part);
    const closed = this.segmenter.add(part);
    if (closed) await this.handSegment(closed);
    await this.options.onPart(part);
  }

  /** The segment of `parts`: their bytes joined in each rung's folder, the part files removed. */
  private async handSegment(parts: SegmentOfParts): Promise<void> {
    const name = segmentName(this.options.segmentPrefix, this.segments++);
    const files = await Promise.all(
      this.options.rungDirs.map(async (dir, i) => {
        const file = path.join(dir, name);
        const bytes = await Promise.all(parts.map((p) => fsp.readFile(this.partFiles.get(p.name)!.files[i].file)));
        await fsp.writeFile(file, Buffer.concat(bytes));
        return { file, bytes: bytes.reduce((n, b) => n + b.length, 0) };
      }),
    );
    const duration = Math.round(parts.reduce((s, p) => s + p.duration, 0) * 1e6) / 1e6;
    await this.options.onSegment({ name, duration, files, facts: this.facts ?? {} }, parts);
    for (const p of parts) {
      await Promise.all(this.partFiles.get(p.name)!.files.map((f) => fsp.rm(f.file, { force: true })));
      this.partFiles.delete(p.name);
    }
  }
}
