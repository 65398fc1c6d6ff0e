import fsp from 'node:fs/promises';
import path from 'node:path';
import { OutboundGuard } from '@platform/outbound';
import { Cue } from '@platform/captions';
import { assetKeys, ObjectStore } from '@platform/storage';
import { LatencyMode } from '../live-streams/live-stream.entity';
import { contentInput, FinishedSegment, HlsPackager, MediaFacts, probeMedia } from './hls-packager';
import { GeneratedSubtitles } from '../live-streams/generated-subtitles';
import { CaptionChannel, extractCaptions } from './captions';
import {
  LIVE_EDGE_MASTER,
  LIVE_VARIANT,
  liveMasterPlaylist,
  PlaylistSegment,
  recordingPlaylist,
  SubtitlesRendition,
  WINDOW_VARIANT,
  windowPlaylist,
} from './live-playlists';
import { readStoredRecording, StoredRecording } from './recording-restore';
import { downloadSlate, slateInput } from './slate';
import { LiveCaptions, SUBTITLES_VARIANT, SUBTITLES_WINDOW_VARIANT } from './speech/live-captions';

export type SpanType = 'content' | 'slate';

export interface ListedSegment extends PlaylistSegment {
  span: number;
}

export interface Span {
  type: SpanType;
  startedAt: Date;
}

/** Spec 2.1's `recording_times`: one entry per span that kept segments. */
export interface RecordingTime {
  started_at: string;
  duration: number;
  type: SpanType;
}

export interface RecordingTools {
  ffmpegPath: string;
  ffprobePath: string;
  /** Python with PocketSphinx (generated subtitles). */
  speechPython: string;
  store: ObjectStore;
  /** OUTBOUND_ALLOW: what the slate image download may connect to. */
  guard: OutboundGuard;
  warn(message: string): void;
}

/** What the stream asks of its recordings: `embedded_subtitles` channels, `audio_only`, `generated_subtitles`. */
export interface RecordingOptions {
  captions?: readonly CaptionChannel[];
  audioOnly?: boolean;
  subtitles?: GeneratedSubtitles;
}

/** What a closed recording is: its length, media, spans, and the captions read from its video. */
export interface RecordingSummary extends MediaFacts {
  duration: number;
  segments: number;
  recordingTimes: RecordingTime[];
  captions: Array<{ channel: CaptionChannel; vtt: string }>;
  /** Generated live subtitles on the recording's timeline (undefined: the stream has none). */
  generatedCues?: Cue[];
}

/** `recording_times` of the segments kept: each span's start and the length of its segments, empty spans left out. */
export function recordingTimes(spans: Span[], segments: Array<Pick<ListedSegment, 'span' | 'duration'>>): RecordingTime[] {
  return spans.flatMap((span, i) => {
    const listed = segments.filter((s) => s.span === i);
    if (listed.length === 0) return [];
    const duration = Math.round(listed.reduce((sum, s) => sum + s.duration, 0) * 1000) / 1000;
    return [{ started_at: span.startedAt.toISOString(), duration, type: span.type }];
  });
}

/**
 * The recording of one live stream into one asset, across encoder sessions: a reconnect inside the
 * reconnect window continues it, and slate may fill the time the encoder is away (each join after an
 * EXT-X-DISCONTINUITY). Segments are stored as they finish, then the playlists that list them, under
 * `assets/{asset_id}/hls/`: the whole recording (`master.m3u8` → `live/`, an EVENT playlist, VOD once
 * closed) and the live edge (`live-edge.m3u8` → `window/`, sliding). Slate after the last content is
 * dropped when the recording closes.
 */
export class LiveRecording {
  private readonly segments: ListedSegment[] = [];
  private readonly spans: Span[] = [];
  /** Spans whose ffmpeg has not finished yet (a reconnect may begin before the last one is done). */
  private readonly packagers = new Map<HlsPackager, number>();
  private readonly finishing = new Set<Promise<void>>();
  /** Segments are listed one at a time, in the order they are handed over. */
  private adding: Promise<void> = Promise.resolve();
  private facts: MediaFacts = {};
  private masterWritten = false;
  private slate?: HlsPackager;
  /** Set while slate is starting, so an end that comes meanwhile waits for it. */
  private slateStarting?: Promise<void>;
  private slateImage: Promise<string | undefined> = Promise.resolve(undefined);
  private readonly generated?: LiveCaptions;

  constructor(
    readonly assetId: string,
    private readonly latencyMode: LatencyMode,
    private readonly workDir: string,
    private readonly tools: RecordingTools,
    private readonly options: RecordingOptions = {},
  ) {
    if (options.subtitles) {
      this.generated = new LiveCaptions(assetId, latencyMode, {
        ffmpegPath: tools.ffmpegPath,
        pythonPath: tools.speechPython,
        store: tools.store,
        warn: (message) => tools.warn(message),
      });
    }
  }

  /**
   * A recording a live process that is gone (crashed, or stopped) left open, rebuilt from what it
   * stored: the recording playlist's segments (each span's number and type from its segment names,
   * its start from when its first segment was stored, less that segment's length), the media of its
   * first segment, local copies of the segments when captions or subtitles will read them, and the
   * subtitles already written. Closing it, or a reconnect continuing it, goes on from there.
   * Segments the gone process had not stored are lost.
   */
  static async restore(
    assetId: string,
    latencyMode: LatencyMode,
    workDir: string,
    tools: RecordingTools,
    options: RecordingOptions = {},
  ): Promise<LiveRecording> {
    const recording = new LiveRecording(assetId, latencyMode, workDir, tools, options);
    const local = recording.captions.length > 0 || recording.generated !== undefined;
    const stored = await readStoredRecording(assetId, workDir, tools, local);
    if (stored) await recording.resume(stored);
    return recording;
  }

  private async resume(stored: StoredRecording): Promise<void> {
    this.segments.push(...stored.segments);
    this.spans.push(...stored.spans);
    this.facts = stored.facts;
    this.masterWritten = true;
    const content = (s: ListedSegment) => this.spans[s.span].type === 'content';
    await this.generated?.restore(this.segments.map((s) => ({ ...s, file: path.join(this.workDir, s.name), content: content(s) })));
  }

  private get captions(): readonly CaptionChannel[] {
    return this.options.captions ?? [];
  }

  /** Fetches the stream's slate image for this recording (spec 2.3: downloaded for each new recorded asset). */
  prepareSlate(url: string | null): void {
    if (!url) return;
    this.slateImage = fsp.mkdir(this.workDir, { recursive: true }).then(() =>
      downloadSlate(
        url,
        path.join(this.workDir, 'slate-image'),
        async (f) => (await probeMedia(this.tools.ffprobePath, f)).video !== undefined,
        (message) => this.tools.warn(message),
        this.tools.guard,
      ),
    );
  }

  /** A session begins (the first, or a reconnect): ffmpeg starts pulling `sourceUrl`. Returns the session's packager. */
  startSession(sourceUrl: string): Promise<HlsPackager> {
    return this.startSpan('content', contentInput(sourceUrl, this.options.audioOnly));
  }

  /** The encoder is away: slate shaped like its media fills the playlist until `endSlate`. */
  async startSlate(): Promise<void> {
    if (this.slate || this.slateStarting || (!this.facts.video && !this.facts.audio)) return;
    this.slateStarting = (async () => {
      const image = this.facts.video ? await this.slateImage : undefined;
      this.slate = await this.startSpan('slate', slateInput(this.facts, this.latencyMode, image));
    })();
    await this.slateStarting.finally(() => (this.slateStarting = undefined));
  }

  /** The encoder is back (or the window is over): the slate's last segments are stored. */
  async endSlate(): Promise<void> {
    await this.slateStarting?.catch(() => undefined);
    const slate = this.slate;
    this.slate = undefined;
    if (slate) await this.endSession(slate);
  }

  /** The session's encoder left: its ffmpeg stops and its last segments are stored. */
  endSession(packager: HlsPackager): Promise<void> {
    const span = this.packagers.get(packager);
    if (span === undefined) return Promise.resolve();
    this.packagers.delete(packager);
    const done = packager.finish().then(async (facts) => {
      if (!this.facts.video && !this.facts.audio) this.facts = facts;
      await this.adding;
      await this.generated?.endSpan(span);
    });
    this.finishing.add(done);
    return done.finally(() => this.finishing.delete(done));
  }

  /**
   * The recording is over: trailing slate is dropped, the playlists closed, the captions read, the
   * generated subtitles finished. Its local files stay until `dispose` (the final subtitles read them).
   */
  async close(): Promise<RecordingSummary> {
    await this.slateStarting?.catch(() => undefined);
    this.slate = undefined;
    await Promise.all([...this.packagers.keys()].map((p) => this.endSession(p)));
    await Promise.allSettled([...this.finishing]);
    await this.adding;
    await this.dropTrailingSlate();
    if (this.segments.length > 0) await this.putPlaylist(true);
    const captions = this.facts.video ? await this.readCaptions() : [];
    const generatedCues = await this.generated?.close(this.segments.length);
    const duration = Math.round(this.segments.reduce((sum, s) => sum + s.duration, 0) * 1000) / 1000;
    return { duration, segments: this.segments.length, recordingTimes: recordingTimes(this.spans, this.segments), captions, generatedCues, ...this.facts };
  }

  /** `generated_live_final`: the closed recording heard again as a whole. */
  finalSubtitles(): Promise<Cue[]> {
    if (!this.generated) return Promise.resolve([]);
    return this.generated.transcribeRecording();
  }

  /** The recording's local files are removed (and any recognizer still running stopped). */
  async dispose(): Promise<void> {
    this.halt();
    await fsp.rm(this.workDir, { recursive: true, force: true });
  }

  /** The service stops: recognizers end, local files stay (the recording is restored from the store and them). */
  halt(): void {
    this.generated?.kill();
  }

  /** Stores a text track's WebVTT where the playback host serves it: `{playback_id}/text/{track_id}.vtt`. */
  async storeCaptions(trackId: string, vtt: string): Promise<void> {
    await this.tools.store.putBuffer(assetKeys.hls(this.assetId, `text/${trackId}.vtt`), vtt);
  }

  /** The CEA-608 captions in the kept segments (slate has none), read once the recording is closed. */
  private async readCaptions(): Promise<RecordingSummary['captions']> {
    const segments = this.segments.map((s) => s.name);
    return extractCaptions(this.tools.ffmpegPath, this.workDir, segments, this.captions).catch((err: unknown) => {
      this.tools.warn(`reading captions: ${err instanceof Error ? err.message : String(err)}`);
      return [];
    });
  }

  private async startSpan(type: SpanType, input: string[]): Promise<HlsPackager> {
    const span = this.spans.push({ type, startedAt: new Date() }) - 1;
    let first = true;
    const packager = new HlsPackager({
      ffmpegPath: this.tools.ffmpegPath,
      ffprobePath: this.tools.ffprobePath,
      input,
      workDir: this.workDir,
      segmentPrefix: `${type === 'slate' ? 'slate' : 's'}${span + 1}_`,
      latencyMode: this.latencyMode,
      onSegment: (segment) => {
        const isFirst = first;
        first = false;
        this.adding = this.adding.then(() => this.add(segment, span, isFirst && this.segments.length > 0));
        return this.adding;
      },
    });
    this.packagers.set(packager, span);
    await packager.start();
    return packager;
  }

  private async dropTrailingSlate(): Promise<void> {
    while (this.segments.length > 0 && this.spans[this.segments[this.segments.length - 1].span].type === 'slate') {
      const dropped = this.segments.pop()!;
      await this.tools.store.deletePrefix(assetKeys.hls(this.assetId, `${LIVE_VARIANT}/${dropped.name}`));
    }
  }

  private async add(segment: FinishedSegment, span: number, discontinuity: boolean): Promise<void> {
    await this.tools.store.putFile(assetKeys.hls(this.assetId, `${LIVE_VARIANT}/${segment.name}`), segment.file);
    this.segments.push({ name: segment.name, duration: segment.duration, discontinuity, span });
    await this.putPlaylist(false);
    const content = this.spans[span].type === 'content';
    this.generated?.segmentStored({ ...segment, span, content, discontinuity, spanStartTime: segment.facts.startTime });
    if (!this.facts.video && !this.facts.audio) this.facts = segment.facts;
    if (!this.masterWritten) {
      const bandwidth = Math.max(64_000, Math.round((segment.bytes * 8) / Math.max(segment.duration, 0.5)));
      await this.tools.store.putBuffer(
        assetKeys.hls(this.assetId, 'master.m3u8'),
        liveMasterPlaylist(this.facts, bandwidth, { captions: this.captions, subtitles: this.subtitlesRendition(SUBTITLES_VARIANT) }),
      );
      await this.tools.store.putBuffer(
        assetKeys.hls(this.assetId, LIVE_EDGE_MASTER),
        liveMasterPlaylist(this.facts, bandwidth, {
          captions: this.captions,
          variant: WINDOW_VARIANT,
          subtitles: this.subtitlesRendition(SUBTITLES_WINDOW_VARIANT),
        }),
      );
      this.masterWritten = true;
    }
  }

  private subtitlesRendition(variant: string): SubtitlesRendition | undefined {
    const subtitles = this.options.subtitles;
    return subtitles && { name: subtitles.name, languageCode: subtitles.languageCode, uri: `${variant}/index.m3u8` };
  }

  private async putPlaylist(ended: boolean): Promise<void> {
    await this.tools.store.putBuffer(assetKeys.hls(this.assetId, `${WINDOW_VARIANT}/index.m3u8`), windowPlaylist(this.segments, ended, this.latencyMode));
    await this.tools.store.putBuffer(assetKeys.hls(this.assetId, `${LIVE_VARIANT}/index.m3u8`), recordingPlaylist(this.segments, ended, this.latencyMode));
  }
}
