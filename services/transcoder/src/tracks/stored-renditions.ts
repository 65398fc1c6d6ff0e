import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TimelineSegment } from '@platform/captions';
import { assetKeys, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { FfprobeOutput } from '../media/probe.types';
import { buildStartTimeProbeArgs } from '../media/track-args';
import { masterVariants, PlaylistEntry, playlistEntries, PlaylistSpan, resolveUnder, spansOf, StoredVariant } from './stored-playlists';
import { MediaRunner, RunOptions } from '@platform/media';

/** ffmpeg's MPEG-TS muxer starts a stream at 1.4 s; the time used when a segment's start cannot be read. */
const DEFAULT_TIMELINE_START = 1.4;

/** The video an asset plays, as a track follows it: its variant's segments and where each span starts on the MPEG-TS timeline. */
export interface VideoTimeline {
  spans: PlaylistSpan[];
  /** Per segment, for its subtitle segment. */
  segments: TimelineSegment[];
  /** Per span: the presentation time (seconds) of its first frame, the asset's time 0 of that span. */
  starts: number[];
}

/**
 * The asset's stored HLS read back for its tracks (`assets/{id}/hls/…` as the ladder or the live
 * ingest wrote it): the variants of its stored master, their segments, and where their timestamps
 * start. Never the master the playback host serves (that adds the tracks' renditions).
 */
export class StoredRenditions {
  constructor(
    private readonly store: ObjectStore,
    private readonly runner: MediaRunner,
  ) {}

  async variants(assetId: string): Promise<StoredVariant[]> {
    const variants = masterVariants(await this.text(assetId, 'master.m3u8'));
    if (variants.length === 0) throw new Error(`the master playlist of asset ${assetId} lists no variant`);
    return variants;
  }

  /** A media playlist's segments, as paths under `hls/`. */
  async entries(assetId: string, playlist: string): Promise<PlaylistEntry[]> {
    const entries = playlistEntries(await this.text(assetId, playlist)).map((e) => ({ ...e, uri: resolveUnder(playlist, e.uri) }));
    if (entries.length === 0) throw new Error(`${playlist} of asset ${assetId} lists no segment`);
    return entries;
  }

  /** The timeline of the asset's first variant (every variant has the same segments and timestamps). */
  async videoTimeline(assetId: string, workDir: string, run: RunOptions): Promise<VideoTimeline> {
    const [first] = await this.variants(assetId);
    const spans = spansOf(await this.entries(assetId, first.uri));
    const starts: number[] = [];
    for (const [i, span] of spans.entries()) starts.push(await this.startOf(assetId, span.entries[0], path.join(workDir, `probe-${i}.ts`), run));
    const segments = spans.flatMap((span, i) =>
      span.entries.map((e) => ({ duration: e.duration, discontinuity: e.discontinuity, spanStart: span.start, mpegTs: Math.round(starts[i] * 90_000) })),
    );
    return { spans, segments, starts };
  }

  /** A span's segments, concatenated into one local MPEG-TS file (segments of one span are consecutive pieces of one stream). */
  async fetchSpan(assetId: string, span: PlaylistSpan, file: string, signal: AbortSignal): Promise<void> {
    await writeFile(file, '');
    for (const entry of span.entries) {
      signal.throwIfAborted();
      await appendFile(file, await this.store.getBuffer(assetKeys.hls(assetId, entry.uri)));
    }
  }

  /** The presentation time of the segment's first frame (video, else audio), in seconds. */
  private async startOf(assetId: string, entry: PlaylistEntry, file: string, run: RunOptions): Promise<number> {
    await this.store.getFile(assetKeys.hls(assetId, entry.uri), file);
    const probe = await this.runner.probeJson<FfprobeOutput>(buildStartTimeProbeArgs(file), run);
    const start = (type: string) => Number.parseFloat(probe.streams?.find((s) => s.codec_type === type)?.start_time ?? '');
    const video = start('video');
    if (Number.isFinite(video)) return video;
    const audio = start('audio');
    return Number.isFinite(audio) ? audio : DEFAULT_TIMELINE_START;
  }

  private async text(assetId: string, file: string): Promise<string> {
    try {
      return (await this.store.getBuffer(assetKeys.hls(assetId, file))).toString('utf8');
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw new Error(`asset ${assetId} has no stored ${file}`, { cause: err });
      throw err;
    }
  }
}
