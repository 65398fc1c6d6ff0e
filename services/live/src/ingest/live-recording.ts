import fsp from 'node:fs/promises';
import path from 'node:path';
import { OutboundGuard } from '@platform/outbound';
import { Cue } from '@platform/captions';
import { assetKeys, ObjectStore } from '@platform/storage';
import { LatencyMode } from '../live-streams/live-stream.entity';
import { bitrateFor } from '@platform/media';
import { FinishedSegment, SEGMENT_SECONDS, SpanPackager } from './hls-packager';
import { LowLatencyLive } from './low-latency/low-latency-live';
import { SegmentOfParts } from './low-latency/part-segmenter';
import { FinishedPart } from './low-latency/parts-packager';
import { spanPackager } from './span-packager';
import { SpanRunner } from './span-runner';
import { LiveLadderMode, LiveRung, planLiveLadder } from './media/live-ladder';
import { MediaFacts, probeSource } from './media/media-probe';
import { PackagerInput } from './media/packager-args';
import { contentInput, slateInput } from './media/packager-inputs';
import { GeneratedSubtitles } from '../live-streams/generated-subtitles';
import { CaptionChannel, readCaptions } from './captions';
import { ListedSegment, recordingTimes, RecordingTime, Span, SpanType } from './recording-spans';
import { RecordingPublisher } from './recording-publisher';
import { readStoredRecording, StoredRecording } from './recording-restore';
import { fetchSlateImage } from './slate';
import { LiveCaptions } from './speech/live-captions';

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

/** What the stream asks of its recordings: `embedded_subtitles` channels, `audio_only`, `generated_subtitles`; LIVE_LADDER. */
export interface RecordingOptions {
  captions?: readonly CaptionChannel[];
  audioOnly?: boolean;
  subtitles?: GeneratedSubtitles;
  /** `full`: rungs below the encoder's own, transcoded in real time (default `passthrough`). */
  ladder?: LiveLadderMode;
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
  /** Spans whose ffmpeg has not finished yet (a reconnect may begin before the last one is done), and the listing queue. */
  private readonly spanRunner: SpanRunner;
  private facts: MediaFacts = {};
  /** The recording's renditions, fixed by its first session (or what a restored recording stored). */
  private rungs?: LiveRung[];
  private masterWritten = false;
  private slate?: SpanPackager;
  /** Set while slate is starting, so an end that comes meanwhile waits for it. */
  private slateStarting?: Promise<void>;
  private slateImage: Promise<string | undefined> = Promise.resolve(undefined);
  private readonly generated?: LiveCaptions;
  private readonly publisher: RecordingPublisher;
  /** Low latency: the parts the live edge lists (LL-HLS). */
  private readonly edge?: LowLatencyLive;

  constructor(
    readonly assetId: string,
    private readonly latencyMode: LatencyMode,
    private readonly workDir: string,
    private readonly tools: RecordingTools,
    private readonly options: RecordingOptions = {},
  ) {
    this.spanRunner = new SpanRunner((message) => tools.warn(message));
    this.publisher = new RecordingPublisher(assetId, latencyMode, tools.store, { captions: options.captions ?? [], subtitles: options.subtitles });
    if (latencyMode === 'low')
      this.edge = new LowLatencyLive(
        this.publisher,
        () => this.rungs ?? [],
        (message) => tools.warn(message),
      );
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
    this.rungs = stored.rungs;
    this.masterWritten = true;
    const content = (s: ListedSegment) => this.spans[s.span].type === 'content';
    await this.generated?.restore(this.segments.map((s) => ({ ...s, file: path.join(this.workDir, s.name), content: content(s) })));
  }

  private get captions(): readonly CaptionChannel[] {
    return this.options.captions ?? [];
  }

  /** Fetches the stream's slate image for this recording (spec 2.3: downloaded for each new recorded asset). */
  prepareSlate(url: string | null): void {
    if (url) this.slateImage = fetchSlateImage(url, this.workDir, this.tools);
  }

  /**
   * A session begins (the first, or a reconnect): with the full ladder the encoder's stream is probed
   * (its codecs decide copy or encode; the first session's size fixes the rungs), then ffmpeg starts
   * pulling `sourceUrl`. Returns the session's packager.
   */
  async startSession(sourceUrl: string): Promise<SpanPackager> {
    // passthrough copies what comes (RTMP carries H.264/AAC; the SRT door has transcoded anything else):
    // no probe, so a session's first segment and a burst of sessions pay nothing for it
    const ladder = this.options.ladder ?? 'passthrough';
    const media = ladder === 'full' ? await probeSource(this.tools.ffprobePath, sourceUrl) : undefined;
    if (ladder === 'full' && !media) this.tools.warn('the encoder could not be probed; its streams are copied as they come');
    const rungs = (this.rungs ??= planLiveLadder(ladder, media?.video, this.options.audioOnly === true));
    // the top rung is encoded at this session's own size when its codec cannot be copied
    if (media?.video) rungs[0] = { ...rungs[0], videoBitrate: bitrateFor(media.video.width * media.video.height) };
    return this.startSpan('content', contentInput(sourceUrl, media, this.options.audioOnly));
  }

  /** The encoder is away: slate shaped like its media fills the playlist until `endSlate`. */
  async startSlate(): Promise<void> {
    if (this.slate || this.slateStarting || (!this.facts.video && !this.facts.audio)) return;
    this.slateStarting = (async () => {
      const image = this.facts.video ? await this.slateImage : undefined;
      this.slate = await this.startSpan('slate', slateInput(this.facts, SEGMENT_SECONDS[this.latencyMode], image));
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
  endSession(packager: SpanPackager): Promise<void> {
    return this.spanRunner.end(packager, async (facts, span) => {
      if (!this.facts.video && !this.facts.audio) this.facts = facts;
      if (this.edge) await this.spanRunner.queue(() => this.edge!.spanEnded(span, this.segments)).catch(() => undefined);
      await this.spanRunner.settledQueue();
      await this.generated?.endSpan(span);
    });
  }

  /**
   * The recording is over: trailing slate is dropped, the playlists closed, the captions read, the
   * generated subtitles finished. Its local files stay until `dispose` (the final subtitles read them).
   */
  async close(): Promise<RecordingSummary> {
    await this.slateStarting?.catch(() => undefined);
    this.slate = undefined;
    await Promise.all(this.spanRunner.running().map((p) => this.endSession(p)));
    await this.spanRunner.settled();
    await this.dropTrailingSlate();
    if (this.segments.length > 0) await this.putPlaylist(true);
    await this.edge?.closed();
    // the CEA-608 captions in the kept segments (slate has none)
    const captions = this.facts.video
      ? await readCaptions(
          this.tools,
          this.workDir,
          this.segments.map((s) => s.name),
          this.captions,
        )
      : [];
    const generatedCues = await this.generated?.close(this.segments.length);
    const duration = Math.round(this.segments.reduce((sum, s) => sum + s.duration, 0) * 1000) / 1000;
    return { duration, segments: this.segments.length, recordingTimes: recordingTimes(this.spans, this.segments), captions, generatedCues, ...this.facts };
  }

  /** `generated_live_final`: the closed recording heard again as a whole. */
  finalSubtitles(): Promise<Cue[]> {
    if (!this.generated) return Promise.resolve([]);
    return this.generated.transcribeRecording();
  }

  /** Waits until every span that was ending has stored its last segments and playlists (nothing more is written after). */
  async settle(): Promise<void> {
    await this.slateStarting?.catch(() => undefined);
    await this.spanRunner.settled();
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

  private async startSpan(type: SpanType, input: PackagerInput): Promise<SpanPackager> {
    if (this.edge) await this.spanRunner.othersEnded();
    const span = this.spans.push({ type, startedAt: new Date() }) - 1;
    const rungs = (this.rungs ??= planLiveLadder('passthrough', undefined, this.options.audioOnly === true));
    const segmentPrefix = `${type === 'slate' ? 'slate' : 's'}${span + 1}_`;
    const segmentSeconds = SEGMENT_SECONDS[this.latencyMode];
    // a span after others begins with a discontinuity (its parts too, while its first segment is under way)
    let first = true;
    const after = () => first && this.segments.length > 0;
    const onSegment = (segment: FinishedSegment, parts?: SegmentOfParts) => {
      const discontinuity = first;
      first = false;
      return this.spanRunner.queue(() => this.add(segment, span, discontinuity && this.segments.length > 0, parts));
    };
    const onPart = (part: FinishedPart) => this.spanRunner.queue(() => this.edge!.partAdded(part, span, after(), this.segments));
    const packager = spanPackager(
      this.tools,
      { input, rungs, segmentSeconds, workDir: this.workDir, segmentPrefix },
      this.edge ? onPart : undefined,
      onSegment,
    );
    this.spanRunner.track(packager, span);
    await packager.start();
    return packager;
  }

  private async dropTrailingSlate(): Promise<void> {
    while (this.segments.length > 0 && this.spans[this.segments[this.segments.length - 1].span].type === 'slate') {
      await this.publisher.deleteSegment(this.rungs ?? [], this.segments.pop()!.name);
    }
  }

  private async add(segment: FinishedSegment, span: number, discontinuity: boolean, parts?: SegmentOfParts): Promise<void> {
    const rungs = this.rungs ?? [];
    await this.publisher.putSegment(rungs, segment);
    this.segments.push({ name: segment.name, duration: segment.duration, discontinuity, span });
    if (parts) this.edge?.segmentAdded(span, segment.name, parts);
    await this.putPlaylist(false);
    const content = this.spans[span].type === 'content';
    this.generated?.segmentStored({ ...segment, file: segment.files[0].file, span, content, discontinuity, spanStartTime: segment.facts.startTime });
    if (!this.facts.video && !this.facts.audio) this.facts = segment.facts;
    if (!this.masterWritten) {
      await this.publisher.putMasters(rungs, segment, this.facts);
      this.masterWritten = true;
    }
  }

  private putPlaylist(ended: boolean): Promise<void> {
    return this.publisher.putPlaylists(this.rungs ?? [], this.segments, ended, this.edge?.listing());
  }
}
