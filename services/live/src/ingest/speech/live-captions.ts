import { assetKeys, ObjectStore } from '@platform/storage';
import { LatencyMode } from '../../live-streams/live-stream.entity';
import { PlaylistSegment, recordingPlaylist, windowPlaylist } from '../live-playlists';
import { Cue, cuesFromUtterance, cuesWithin, fitPcm, parseWebVtt, segmentPcm, shiftCues, SpeechRecognizer, vttMpegTs, vttSegment } from '@platform/captions';

/** Where a recording's generated subtitles are stored, next to its media (`live/`, `window/`). */
export const SUBTITLES_VARIANT = 'subs';
export const SUBTITLES_WINDOW_VARIANT = 'subs-window';
/** Live captions cut an utterance at this length, so a cue never waits long for a pause. */
export const LIVE_MAX_UTTERANCE_SECONDS = 4;
/** MPEG-TS time of a span whose first segment could not be probed: ffmpeg's mpegts muxer starts at 1.4 s. */
const DEFAULT_MPEG_TS = 126_000;

export interface CaptionTools {
  ffmpegPath: string;
  pythonPath: string;
  store: ObjectStore;
  warn(message: string): void;
}

/** A segment of the recording as handed to the captions, in playlist order. */
export interface CaptionedSegment {
  /** The media segment's name (`s1_00003.ts`); its subtitle segment is the same name in `.vtt`. */
  name: string;
  /** The local file (kept until the recording is disposed). */
  file: string;
  duration: number;
  span: number;
  /** Content (an encoder session) is heard; slate carries no speech. */
  content: boolean;
  discontinuity: boolean;
  /** Presentation time of the span's first packet (seconds), for the WebVTT timestamp map. */
  spanStartTime?: number;
}

interface Entry extends PlaylistSegment {
  file: string;
  span: number;
  content: boolean;
  /** Start within its span (seconds): the span's audio is heard on this timeline. */
  localStart: number;
}

interface SpanState {
  cues: Cue[];
  /** Cues before this index ended before the next subtitle segment to write (they come in time order). */
  passed: number;
  settled: number;
  done: boolean;
  mpegTs: number;
  length: number;
  recognizer?: SpeechRecognizer;
  /** Segments are heard one after another. */
  feeding: Promise<void>;
  ending?: Promise<void>;
}

/**
 * Generated live subtitles (`generated_live`) of one recording. Each content span's segments are
 * decoded to PCM as they are stored and heard by its own recognizer, on the span's timeline (each
 * segment's audio fitted to its playlist duration). A subtitle segment `subs/{name}.vtt` is written
 * for every media segment once the recognizer has settled past its end (slate at once, empty), cues
 * on the span's timeline with an `X-TIMESTAMP-MAP` to the span's MPEG-TS start; `subs/index.m3u8`
 * and the live edge's `subs-window/index.m3u8` list them, so the subtitle playlist trails the media
 * by about one segment plus the longest utterance.
 */
export class LiveCaptions {
  private readonly entries: Entry[] = [];
  private readonly spans = new Map<number, SpanState>();
  private written = 0;
  private writing: Promise<void> = Promise.resolve();
  /** The generated_live_final run, while it goes on. */
  private finalPass?: SpeechRecognizer;

  constructor(
    private readonly assetId: string,
    private readonly latencyMode: LatencyMode,
    private readonly tools: CaptionTools,
  ) {}

  /** A media segment was stored; its audio is heard, and its subtitle segment written once settled. */
  segmentStored(segment: CaptionedSegment): void {
    const span = this.spanOf(segment);
    const entry: Entry = {
      name: segment.name.replace(/\.ts$/, '.vtt'),
      duration: segment.duration,
      discontinuity: segment.discontinuity,
      file: segment.file,
      span: segment.span,
      content: segment.content,
      localStart: span.length,
    };
    span.length += segment.duration;
    this.entries.push(entry);
    if (span.recognizer) {
      const recognizer = span.recognizer;
      span.feeding = span.feeding
        .then(async () => recognizer.write(await segmentPcm(this.tools.ffmpegPath, segment.file, segment.duration)))
        .catch((err: unknown) => this.tools.warn(`generated subtitles: hearing ${segment.name}: ${String(err)}`));
    }
    this.writeSoon();
  }

  /**
   * The segments of a recording restored from the store (LiveRecording.restore): their spans are
   * over, their cues read back from the subtitle segments stored (those not stored are written from
   * them when the recording closes).
   */
  async restore(segments: readonly CaptionedSegment[]): Promise<void> {
    const prefix = assetKeys.hls(this.assetId, `${SUBTITLES_VARIANT}/`);
    const stored = new Set((await this.tools.store.list(prefix)).map((o) => o.key));
    const seen = new Set<string>();
    let allWritten = true;
    for (const segment of segments) {
      let span = this.spans.get(segment.span);
      if (!span) {
        span = { cues: [], passed: 0, settled: Infinity, done: true, mpegTs: DEFAULT_MPEG_TS, length: 0, feeding: Promise.resolve() };
        this.spans.set(segment.span, span);
      }
      const name = segment.name.replace(/\.ts$/, '.vtt');
      this.entries.push({
        name,
        duration: segment.duration,
        discontinuity: segment.discontinuity,
        file: segment.file,
        span: segment.span,
        content: segment.content,
        localStart: span.length,
      });
      span.length += segment.duration;
      if (!stored.has(`${prefix}${name}`)) {
        allWritten = false;
        continue;
      }
      const vtt = (await this.tools.store.getBuffer(`${prefix}${name}`)).toString('utf8');
      if (span.cues.length === 0) span.mpegTs = vttMpegTs(vtt) ?? span.mpegTs;
      for (const cue of parseWebVtt(vtt)) {
        const id = `${cue.start}|${cue.end}|${cue.text}`;
        if (!seen.has(`${segment.span}|${id}`)) span.cues.push(cue);
        seen.add(`${segment.span}|${id}`);
      }
      if (allWritten) this.written = this.entries.length;
    }
    for (const span of this.spans.values()) span.cues.sort((a, b) => a.start - b.start);
  }

  /** The span's media is over (its packager finished): its recognizer hears the end of the audio. */
  endSpan(span: number): Promise<void> {
    const state = this.spans.get(span);
    if (!state) return Promise.resolve();
    state.ending ??= (async () => {
      await state.feeding;
      try {
        await state.recognizer?.end();
      } catch (err) {
        this.tools.warn(`generated subtitles: ${err instanceof Error ? err.message : String(err)}`);
      }
      state.done = true;
      this.writeSoon();
      await this.writing;
    })();
    return state.ending;
  }

  /**
   * The recording is closed with its first `kept` segments (trailing slate dropped): every subtitle
   * segment is written and both playlists end. Returns the cues on the whole recording's timeline
   * (the `generated_live` track's WebVTT).
   */
  async close(kept: number): Promise<Cue[]> {
    await Promise.all([...this.spans.keys()].map((span) => this.endSpan(span)));
    await this.writing;
    for (const dropped of this.entries.splice(kept)) {
      await this.tools.store.deletePrefix(assetKeys.hls(this.assetId, `${SUBTITLES_VARIANT}/${dropped.name}`));
    }
    this.written = Math.min(this.written, this.entries.length);
    await this.writeSettled();
    if (this.entries.length > 0) await this.putPlaylists(true);
    return this.recordingCues();
  }

  /**
   * `generated_live_final`: the whole recording heard again in one run, without cutting utterances
   * at a fixed length (slate heard as silence, so times are the recording's).
   */
  async transcribeRecording(): Promise<Cue[]> {
    const cues: Cue[] = [];
    const recognizer = new SpeechRecognizer(this.tools.pythonPath, 0, { onUtterance: (u) => cues.push(...cuesFromUtterance(u)), onSettled: () => undefined });
    this.finalPass = recognizer;
    try {
      for (const e of this.entries)
        await recognizer.write(e.content ? await segmentPcm(this.tools.ffmpegPath, e.file, e.duration) : fitPcm(Buffer.alloc(0), e.duration));
      await recognizer.end();
    } finally {
      recognizer.kill();
      this.finalPass = undefined;
    }
    return cues;
  }

  /** Stops every recognizer, the final pass's too (the service is shutting down). */
  kill(): void {
    for (const span of this.spans.values()) span.recognizer?.kill();
    this.finalPass?.kill();
  }

  private spanOf(segment: CaptionedSegment): SpanState {
    const state = this.spans.get(segment.span);
    if (state) return state;
    const mpegTs = segment.spanStartTime !== undefined ? Math.round(segment.spanStartTime * 90_000) : DEFAULT_MPEG_TS;
    const created: SpanState = { cues: [], passed: 0, settled: 0, done: !segment.content, mpegTs, length: 0, feeding: Promise.resolve() };
    if (segment.content) {
      created.recognizer = new SpeechRecognizer(this.tools.pythonPath, LIVE_MAX_UTTERANCE_SECONDS, {
        onUtterance: (u) => created.cues.push(...cuesFromUtterance(u)),
        onSettled: (seconds) => {
          created.settled = seconds;
          this.writeSoon();
        },
      });
    }
    this.spans.set(segment.span, created);
    return created;
  }

  private settled(entry: Entry): boolean {
    const span = this.spans.get(entry.span)!;
    return span.done || span.settled >= entry.localStart + entry.duration - 0.001;
  }

  private writeSoon(): void {
    this.writing = this.writing.then(() => this.writeSettled()).catch((err: unknown) => this.tools.warn(`generated subtitles: ${String(err)}`));
  }

  private async writeSettled(): Promise<void> {
    const before = this.written;
    while (this.written < this.entries.length && this.settled(this.entries[this.written])) {
      const entry = this.entries[this.written];
      const span = this.spans.get(entry.span)!;
      while (span.passed < span.cues.length && span.cues[span.passed].end <= entry.localStart) span.passed += 1;
      const vtt = vttSegment(span.cues.slice(span.passed), entry.localStart, entry.localStart + entry.duration, span.mpegTs);
      await this.tools.store.putBuffer(assetKeys.hls(this.assetId, `${SUBTITLES_VARIANT}/${entry.name}`), vtt);
      this.written += 1;
    }
    if (this.written > before) await this.putPlaylists(false);
  }

  private async putPlaylists(ended: boolean): Promise<void> {
    const listed = this.entries.slice(0, this.written);
    await this.tools.store.putBuffer(
      assetKeys.hls(this.assetId, `${SUBTITLES_WINDOW_VARIANT}/index.m3u8`),
      windowPlaylist(listed, ended, this.latencyMode, SUBTITLES_VARIANT),
    );
    await this.tools.store.putBuffer(assetKeys.hls(this.assetId, `${SUBTITLES_VARIANT}/index.m3u8`), recordingPlaylist(listed, ended, this.latencyMode));
  }

  /** Each span's cues moved to where the span begins in the recording. */
  private recordingCues(): Cue[] {
    let offset = 0;
    const starts = new Map<number, number>();
    for (const e of this.entries) {
      if (!starts.has(e.span)) starts.set(e.span, offset - e.localStart);
      offset += e.duration;
    }
    return [...starts].flatMap(([span, start]) => shiftCues(cuesWithin(this.spans.get(span)!.cues, 0, Infinity), start));
  }
}
