import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { assetKeys, ObjectStore } from '@platform/storage';
import { LatencyMode } from '../live-streams/live-stream.entity';

const run = promisify(execFile);

/** Segment length per latency mode (seconds; segments are cut at the encoder's key frames). */
export const SEGMENT_SECONDS: Record<LatencyMode, number> = { standard: 4, reduced: 2, low: 1 };
export const LIVE_VARIANT = 'live';
const UPLOAD_EVERY_MS = 300;

export interface PackagerOptions {
  ffmpegPath: string;
  ffprobePath: string;
  /** Where the encoder's stream can be pulled (the local RTMP server). */
  sourceUrl: string;
  workDir: string;
  assetId: string;
  latencyMode: LatencyMode;
}

export interface RecordingSummary {
  duration: number;
  segments: number;
  video?: { width: number; height: number; frameRate?: number };
  audio?: { channels: number };
}

/** The segments a media playlist lists, and their total duration. */
export function parseMediaPlaylist(text: string): { segments: string[]; duration: number; ended: boolean } {
  const segments: string[] = [];
  let duration = 0;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line.startsWith('#EXTINF:')) duration += Number.parseFloat(line.slice('#EXTINF:'.length)) || 0;
    else if (line !== '' && !line.startsWith('#')) segments.push(line);
  }
  return { segments, duration: Math.round(duration * 1000) / 1000, ended: text.includes('#EXT-X-ENDLIST') };
}

/** The recording as a finished on-demand playlist: PLAYLIST-TYPE VOD and EXT-X-ENDLIST. */
export function endedPlaylist(text: string): string {
  const lines = text.trimEnd().split('\n').filter((l) => l.trim() !== '#EXT-X-ENDLIST');
  const typed = lines.map((l) => (l.startsWith('#EXT-X-PLAYLIST-TYPE:') ? '#EXT-X-PLAYLIST-TYPE:VOD' : l));
  if (!typed.some((l) => l.startsWith('#EXT-X-PLAYLIST-TYPE:'))) typed.splice(1, 0, '#EXT-X-PLAYLIST-TYPE:VOD');
  return `${typed.join('\n')}\n#EXT-X-ENDLIST\n`;
}

/** The master playlist of a live recording: one variant, stream-copied from the encoder. */
export function liveMasterPlaylist(summary: Pick<RecordingSummary, 'video'>, bandwidth: number): string {
  const resolution = summary.video ? `,RESOLUTION=${summary.video.width}x${summary.video.height}` : '';
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth}${resolution}\n${LIVE_VARIANT}/index.m3u8\n`;
}

/**
 * One encoder session into HLS in the object store: ffmpeg pulls the stream from the local RTMP
 * server and stream-copies it into segments of the latency mode's length; each finished segment is
 * stored, then the playlist that lists it (an EVENT playlist that grows, EXT-X-ENDLIST at the end),
 * under `assets/{asset_id}/hls/`, where the playback host serves it.
 */
export class HlsPackager {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private readonly stored = new Set<string>();
  private uploading: Promise<void> = Promise.resolve();
  private masterWritten = false;
  private video?: RecordingSummary['video'];
  private audio?: RecordingSummary['audio'];

  constructor(
    private readonly options: PackagerOptions,
    private readonly store: ObjectStore,
  ) {}

  async start(): Promise<void> {
    const { workDir } = this.options;
    await fsp.mkdir(workDir, { recursive: true });
    const child = spawn(
      this.options.ffmpegPath,
      [
        '-v', 'error', '-rw_timeout', '10000000',
        '-i', this.options.sourceUrl,
        '-c', 'copy',
        '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS[this.options.latencyMode]), '-hls_list_size', '0',
        '-hls_playlist_type', 'event', '-hls_flags', 'independent_segments+temp_file',
        '-hls_segment_filename', path.join(workDir, 'segment_%05d.ts'),
        path.join(workDir, 'index.m3u8'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr?.resume();
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.timer = setInterval(() => this.sync(), UPLOAD_EVERY_MS);
  }

  /** Ends the recording: ffmpeg closes the playlist (EXT-X-ENDLIST), the last files are stored. */
  async finish(): Promise<RecordingSummary> {
    clearInterval(this.timer);
    if (this.child && this.child.exitCode === null) this.child.kill('SIGINT');
    const kill = setTimeout(() => this.child?.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(kill);
    await this.uploading;
    await this.upload();
    const playlist = await this.localPlaylist();
    const parsed = parseMediaPlaylist(playlist ?? '');
    if (playlist && parsed.segments.length > 0) {
      // the recording is over: an ended VOD playlist, whether or not ffmpeg got to write its trailer
      await this.store.putBuffer(assetKeys.hls(this.options.assetId, `${LIVE_VARIANT}/index.m3u8`), endedPlaylist(playlist));
    }
    await fsp.rm(this.options.workDir, { recursive: true, force: true });
    return { duration: parsed.duration, segments: parsed.segments.length, video: this.video, audio: this.audio };
  }

  private sync(): void {
    this.uploading = this.uploading.then(() => this.upload()).catch(() => undefined);
  }

  private async localPlaylist(): Promise<string | undefined> {
    return fsp.readFile(path.join(this.options.workDir, 'index.m3u8'), 'utf8').catch(() => undefined);
  }

  /** Stores the segments the playlist lists and not yet stored, then the playlist (and the master once). */
  private async upload(): Promise<void> {
    const playlist = await this.localPlaylist();
    if (!playlist) return;
    const { segments } = parseMediaPlaylist(playlist);
    const { assetId, workDir } = this.options;
    for (const name of segments) {
      if (this.stored.has(name) || !fs.existsSync(path.join(workDir, name))) continue;
      await this.store.putFile(assetKeys.hls(assetId, `${LIVE_VARIANT}/${name}`), path.join(workDir, name));
      this.stored.add(name);
    }
    if (segments.length === 0) return;
    if (!this.masterWritten) {
      const first = path.join(workDir, segments[0]);
      await this.probe(first);
      const bytes = (await fsp.stat(first)).size;
      const bandwidth = Math.max(64_000, Math.round((bytes * 8) / SEGMENT_SECONDS[this.options.latencyMode]));
      await this.store.putBuffer(assetKeys.hls(assetId, `${LIVE_VARIANT}/index.m3u8`), playlist);
      await this.store.putBuffer(assetKeys.hls(assetId, 'master.m3u8'), liveMasterPlaylist({ video: this.video }, bandwidth));
      this.masterWritten = true;
      return;
    }
    await this.store.putBuffer(assetKeys.hls(assetId, `${LIVE_VARIANT}/index.m3u8`), playlist);
  }

  private async probe(file: string): Promise<void> {
    try {
      const { stdout } = await run(this.options.ffprobePath, ['-v', 'error', '-show_streams', '-of', 'json', file]);
      const streams = (JSON.parse(stdout) as { streams: Array<Record<string, unknown>> }).streams;
      const v = streams.find((s) => s.codec_type === 'video');
      const a = streams.find((s) => s.codec_type === 'audio');
      if (v) {
        const [num, den] = String(v.avg_frame_rate ?? v.r_frame_rate ?? '0/1').split('/').map(Number);
        this.video = { width: Number(v.width), height: Number(v.height), ...(num && den ? { frameRate: Math.round((num / den) * 1000) / 1000 } : {}) };
      }
      if (a) this.audio = { channels: Number(a.channels) };
    } catch {
      // the recording still plays; its tracks are then unknown
    }
  }
}
