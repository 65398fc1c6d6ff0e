import fsp from 'node:fs/promises';
import { assetKeys, ObjectStore } from '@platform/storage';
import { LatencyMode } from '../live-streams/live-stream.entity';
import { FinishedSegment, HlsPackager, MediaFacts, SEGMENT_SECONDS } from './hls-packager';

export const LIVE_VARIANT = 'live';

interface ListedSegment {
  name: string;
  duration: number;
  /** The first segment of a reconnected session. */
  discontinuity: boolean;
}

export interface RecordingTools {
  ffmpegPath: string;
  ffprobePath: string;
  store: ObjectStore;
}

/** The recording's media playlist: EVENT while live, VOD with EXT-X-ENDLIST once closed. */
export function recordingPlaylist(segments: ListedSegment[], ended: boolean, latencyMode: LatencyMode): string {
  const target = Math.max(SEGMENT_SECONDS[latencyMode], ...segments.map((s) => Math.ceil(s.duration)));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', `#EXT-X-PLAYLIST-TYPE:${ended ? 'VOD' : 'EVENT'}`, '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const s of segments) {
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${s.duration.toFixed(6)},`, s.name);
  }
  if (ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** The master playlist of a recording: one variant, stream-copied from the encoder. */
export function liveMasterPlaylist(facts: MediaFacts, bandwidth: number): string {
  const resolution = facts.video ? `,RESOLUTION=${facts.video.width}x${facts.video.height}` : '';
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth}${resolution}\n${LIVE_VARIANT}/index.m3u8\n`;
}

/**
 * The recording of one live stream into one asset, across encoder sessions: a reconnect inside the
 * reconnect window continues it (after an EXT-X-DISCONTINUITY). Segments are stored as they finish,
 * then the playlist that lists them, under `assets/{asset_id}/hls/`.
 */
export class LiveRecording {
  private readonly segments: ListedSegment[] = [];
  /** Sessions whose ffmpeg has not finished yet (a reconnect may begin before the last one is done). */
  private readonly packagers = new Set<HlsPackager>();
  private readonly finishing = new Set<Promise<void>>();
  private sessions = 0;
  /** Segments are listed one at a time, in the order they are handed over. */
  private adding: Promise<void> = Promise.resolve();
  private facts: MediaFacts = {};
  private masterWritten = false;

  constructor(
    readonly assetId: string,
    private readonly latencyMode: LatencyMode,
    private readonly workDir: string,
    private readonly tools: RecordingTools,
  ) {}

  /** A session begins (the first, or a reconnect): ffmpeg starts pulling `sourceUrl`. Returns the session's packager. */
  async startSession(sourceUrl: string): Promise<HlsPackager> {
    this.sessions += 1;
    const session = this.sessions;
    let first = true;
    const packager = new HlsPackager({
      ffmpegPath: this.tools.ffmpegPath,
      ffprobePath: this.tools.ffprobePath,
      sourceUrl,
      workDir: this.workDir,
      segmentPrefix: `s${session}_`,
      latencyMode: this.latencyMode,
      onSegment: (segment) => {
        const discontinuity = session > 1 && first;
        first = false;
        this.adding = this.adding.then(() => this.add(segment, discontinuity));
        return this.adding;
      },
    });
    this.packagers.add(packager);
    await packager.start();
    return packager;
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

  /** The recording is over: the playlist is closed. Returns its length and what the media is. */
  async close(): Promise<{ duration: number; segments: number } & MediaFacts> {
    await Promise.all([...this.packagers].map((p) => this.endSession(p)));
    await Promise.allSettled([...this.finishing]);
    await this.adding;
    if (this.segments.length > 0) await this.putPlaylist(true);
    await fsp.rm(this.workDir, { recursive: true, force: true });
    const duration = Math.round(this.segments.reduce((sum, s) => sum + s.duration, 0) * 1000) / 1000;
    return { duration, segments: this.segments.length, ...this.facts };
  }

  private async add(segment: FinishedSegment, discontinuity: boolean): Promise<void> {
    await this.tools.store.putFile(assetKeys.hls(this.assetId, `${LIVE_VARIANT}/${segment.name}`), segment.file);
    this.segments.push({ name: segment.name, duration: segment.duration, discontinuity });
    await this.putPlaylist(false);
    if (!this.facts.video && !this.facts.audio) this.facts = segment.facts;
    if (!this.masterWritten) {
      const bandwidth = Math.max(64_000, Math.round((segment.bytes * 8) / Math.max(segment.duration, 0.5)));
      await this.tools.store.putBuffer(assetKeys.hls(this.assetId, 'master.m3u8'), liveMasterPlaylist(this.facts, bandwidth));
      this.masterWritten = true;
    }
  }

  private async putPlaylist(ended: boolean): Promise<void> {
    await this.tools.store.putBuffer(assetKeys.hls(this.assetId, `${LIVE_VARIANT}/index.m3u8`), recordingPlaylist(this.segments, ended, this.latencyMode));
  }
}
