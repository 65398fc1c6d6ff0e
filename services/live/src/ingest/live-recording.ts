import fsp from 'node:fs/promises';
import path from 'node:path';
import { assetKeys, ObjectStore } from '@platform/storage';
import { LatencyMode } from '../live-streams/live-stream.entity';
import { contentInput, FinishedSegment, HlsPackager, MediaFacts, probeMedia, SEGMENT_SECONDS } from './hls-packager';
import { CaptionChannel, closedCaptionMedia, extractCaptions } from './captions';
import { downloadSlate, slateInput } from './slate';

export const LIVE_VARIANT = 'live';
/** The live edge: a sliding window over the recording's segments, what a live stream's playback id plays. */
export const WINDOW_VARIANT = 'window';
export const LIVE_EDGE_MASTER = 'live-edge.m3u8';
/** How much the sliding window keeps (at least three segments). */
export const WINDOW_SECONDS = 30;

export type SpanType = 'content' | 'slate';

interface ListedSegment {
  name: string;
  duration: number;
  /** The first segment of a span after another (a reconnect, slate, or back from slate). */
  discontinuity: boolean;
  span: number;
}

interface Span {
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
  store: ObjectStore;
  warn(message: string): void;
}

/** What the stream asks of its recordings: `embedded_subtitles` channels, `audio_only`. */
export interface RecordingOptions {
  captions?: readonly CaptionChannel[];
  audioOnly?: boolean;
}

/** What a closed recording is: its length, media, spans, and the captions read from its video. */
export interface RecordingSummary extends MediaFacts {
  duration: number;
  segments: number;
  recordingTimes: RecordingTime[];
  captions: Array<{ channel: CaptionChannel; vtt: string }>;
}

/** The recording's media playlist: EVENT while live, VOD with EXT-X-ENDLIST once closed. */
export function recordingPlaylist(segments: Array<Omit<ListedSegment, 'span'>>, ended: boolean, latencyMode: LatencyMode): string {
  const target = Math.max(SEGMENT_SECONDS[latencyMode], ...segments.map((s) => Math.ceil(s.duration)));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', `#EXT-X-PLAYLIST-TYPE:${ended ? 'VOD' : 'EVENT'}`, '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const s of segments) {
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${s.duration.toFixed(6)},`, s.name);
  }
  if (ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/**
 * The live edge's media playlist: the last WINDOW_SECONDS of segments (at least three), numbered by
 * their place in the recording (MEDIA-SEQUENCE) with the discontinuities that slid out counted
 * (DISCONTINUITY-SEQUENCE); its segments are the recording's (`../live/…`).
 */
export function windowPlaylist(segments: Array<Omit<ListedSegment, 'span'>>, ended: boolean, latencyMode: LatencyMode): string {
  let first = segments.length;
  let kept = 0;
  while (first > 0 && (segments.length - first < 3 || kept + segments[first - 1].duration <= WINDOW_SECONDS)) {
    first -= 1;
    kept += segments[first].duration;
  }
  const listed = segments.slice(first);
  const slidOut = segments.slice(0, first).filter((s) => s.discontinuity).length;
  const target = Math.max(SEGMENT_SECONDS[latencyMode], ...listed.map((s) => Math.ceil(s.duration)));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, `#EXT-X-MEDIA-SEQUENCE:${first}`, `#EXT-X-DISCONTINUITY-SEQUENCE:${slidOut}`, '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const s of listed) {
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${s.duration.toFixed(6)},`, `../${LIVE_VARIANT}/${s.name}`);
  }
  if (ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/**
 * The master playlist of a recording: one variant, stream-copied from the encoder, with the stream's
 * `embedded_subtitles` channels as CLOSED-CAPTIONS renditions (CEA-608 in the video). `variant` is
 * the whole recording (`live`) or the live edge (`window`).
 */
export function liveMasterPlaylist(facts: MediaFacts, bandwidth: number, captions: readonly CaptionChannel[] = [], variant = LIVE_VARIANT): string {
  const resolution = facts.video ? `,RESOLUTION=${facts.video.width}x${facts.video.height}` : '';
  const withCaptions = facts.video !== undefined && captions.length > 0;
  const media = withCaptions ? closedCaptionMedia(captions).map((l) => `${l}\n`).join('') : '';
  const cc = withCaptions ? ',CLOSED-CAPTIONS="cc"' : '';
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n${media}#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth}${resolution}${cc}\n${variant}/index.m3u8\n`;
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
  private readonly packagers = new Set<HlsPackager>();
  private readonly finishing = new Set<Promise<void>>();
  /** Segments are listed one at a time, in the order they are handed over. */
  private adding: Promise<void> = Promise.resolve();
  private facts: MediaFacts = {};
  private masterWritten = false;
  private slate?: HlsPackager;
  /** Set while slate is starting, so an end that comes meanwhile waits for it. */
  private slateStarting?: Promise<void>;
  private slateImage: Promise<string | undefined> = Promise.resolve(undefined);

  constructor(
    readonly assetId: string,
    private readonly latencyMode: LatencyMode,
    private readonly workDir: string,
    private readonly tools: RecordingTools,
    private readonly options: RecordingOptions = {},
  ) {}

  private get captions(): readonly CaptionChannel[] {
    return this.options.captions ?? [];
  }

  /** Fetches the stream's slate image for this recording (spec 2.3: downloaded for each new recorded asset). */
  prepareSlate(url: string | null): void {
    if (!url) return;
    this.slateImage = fsp
      .mkdir(this.workDir, { recursive: true })
      .then(() => downloadSlate(url, path.join(this.workDir, 'slate-image'), async (f) => (await probeMedia(this.tools.ffprobePath, f)).video !== undefined, this.tools.warn));
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
    if (!this.packagers.delete(packager)) return Promise.resolve();
    const done = packager.finish().then((facts) => {
      if (!this.facts.video && !this.facts.audio) this.facts = facts;
    });
    this.finishing.add(done);
    return done.finally(() => this.finishing.delete(done));
  }

  /** The recording is over: trailing slate is dropped, the playlist closed, the captions read. */
  async close(): Promise<RecordingSummary> {
    await this.slateStarting?.catch(() => undefined);
    this.slate = undefined;
    await Promise.all([...this.packagers].map((p) => this.endSession(p)));
    await Promise.allSettled([...this.finishing]);
    await this.adding;
    await this.dropTrailingSlate();
    if (this.segments.length > 0) await this.putPlaylist(true);
    const captions = this.facts.video ? await this.readCaptions() : [];
    await fsp.rm(this.workDir, { recursive: true, force: true });
    const duration = Math.round(this.segments.reduce((sum, s) => sum + s.duration, 0) * 1000) / 1000;
    return { duration, segments: this.segments.length, recordingTimes: recordingTimes(this.spans, this.segments), captions, ...this.facts };
  }

  /** Stores a caption track's WebVTT where the playback host serves it: `{playback_id}/text/{track_id}.vtt`. */
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
    this.packagers.add(packager);
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
    if (!this.facts.video && !this.facts.audio) this.facts = segment.facts;
    if (!this.masterWritten) {
      const bandwidth = Math.max(64_000, Math.round((segment.bytes * 8) / Math.max(segment.duration, 0.5)));
      await this.tools.store.putBuffer(assetKeys.hls(this.assetId, 'master.m3u8'), liveMasterPlaylist(this.facts, bandwidth, this.captions));
      await this.tools.store.putBuffer(assetKeys.hls(this.assetId, LIVE_EDGE_MASTER), liveMasterPlaylist(this.facts, bandwidth, this.captions, WINDOW_VARIANT));
      this.masterWritten = true;
    }
  }

  private async putPlaylist(ended: boolean): Promise<void> {
    await this.tools.store.putBuffer(assetKeys.hls(this.assetId, `${WINDOW_VARIANT}/index.m3u8`), windowPlaylist(this.segments, ended, this.latencyMode));
    await this.tools.store.putBuffer(assetKeys.hls(this.assetId, `${LIVE_VARIANT}/index.m3u8`), recordingPlaylist(this.segments, ended, this.latencyMode));
  }
}
