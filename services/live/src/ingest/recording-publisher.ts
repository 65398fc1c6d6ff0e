import { platformMetrics } from '@platform/metrics';
import { assetKeys, ObjectStore } from '@platform/storage';
import { LatencyMode } from '../live-streams/live-stream.entity';
import { GeneratedSubtitles } from '../live-streams/generated-subtitles';
import { CaptionChannel } from './captions';
import { FinishedSegment } from './hls-packager';
import {
  LIVE_EDGE_MASTER,
  LiveMasterVariant,
  liveMasterPlaylist,
  LowLatencyListing,
  PlaylistSegment,
  recordingPlaylist,
  windowPlaylist,
} from './live-playlists';
import { FinishedPart } from './low-latency/parts-packager';
import { LiveRung } from './media/live-ladder';
import { MediaFacts } from './media/media-probe';
import { SUBTITLES_VARIANT, SUBTITLES_WINDOW_VARIANT } from './speech/live-captions';

/** A low-latency part's name (`s1_part00012.ts`, `slate2_part00003.ts`). */
const LOW_LATENCY_PART = /_part\d+\.ts$/;

/** What every rung's low-latency edge lists alike (each adds the reports of the others). */
export type RungListing = Omit<LowLatencyListing, 'reports'>;

/** BANDWIDTH of a rung from one segment: its bits over its seconds, at least 64 kb/s. */
const bandwidthOf = (bytes: number, seconds: number) => Math.max(64_000, Math.round((bytes * 8) / Math.max(seconds, 0.5)));

/**
 * What a recording puts in the object store under `assets/{asset_id}/hls/`: each rung's segments in
 * its folder, each rung's playlists (the whole recording in `{folder}/`, the live edge in
 * `{windowFolder}/`, both listing the same segment names), and the two masters (`master.m3u8`,
 * `live-edge.m3u8`) with the captions and generated subtitles renditions.
 */
export class RecordingPublisher {
  constructor(
    private readonly assetId: string,
    private readonly latencyMode: LatencyMode,
    private readonly store: ObjectStore,
    private readonly renditions: { captions: readonly CaptionChannel[]; subtitles?: GeneratedSubtitles },
  ) {}

  async putSegment(rungs: readonly LiveRung[], segment: FinishedSegment): Promise<void> {
    for (const [i, rung] of rungs.entries()) await this.store.putFile(this.key(`${rung.folder}/${segment.name}`), segment.files[i].file);
    platformMetrics.liveIngestBytes().inc({ service: 'live' }, segment.files[0]?.bytes ?? 0);
  }

  async deleteSegment(rungs: readonly LiveRung[], name: string): Promise<void> {
    for (const rung of rungs) await this.store.deletePrefix(this.key(`${rung.folder}/${name}`));
  }

  /** A low-latency part of every rung, next to the segments. */
  async putPart(rungs: readonly LiveRung[], part: FinishedPart): Promise<void> {
    await Promise.all(rungs.map((rung, i) => this.store.putFile(this.key(`${rung.folder}/${part.name}`), part.files[i].file)));
  }

  /** Parts no playlist lists any more (their segments are stored). */
  async deleteParts(rungs: readonly LiveRung[], names: readonly string[]): Promise<void> {
    await Promise.all(rungs.flatMap((rung) => names.map((name) => this.store.deletePrefix(this.key(`${rung.folder}/${name}`)))));
  }

  /** Every part of the recording still stored (it is closed: its playlists list segments only). */
  async deleteAllParts(rungs: readonly LiveRung[]): Promise<void> {
    for (const rung of rungs) {
      const stored = await this.store.list(this.key(`${rung.folder}/`));
      const parts = stored.filter((o) => LOW_LATENCY_PART.test(o.key)).map((o) => o.key);
      await Promise.all(parts.map((key) => this.store.deletePrefix(key)));
    }
  }

  /** Each rung's two playlists: the live edge (LL-HLS with `lowLatency`) and the whole recording. */
  async putPlaylists(rungs: readonly LiveRung[], segments: readonly PlaylistSegment[], ended: boolean, lowLatency?: RungListing): Promise<void> {
    for (const rung of rungs) {
      await this.putWindow(rungs, rung, segments, ended, lowLatency);
      await this.store.putBuffer(this.key(`${rung.folder}/index.m3u8`), recordingPlaylist(segments, ended, this.latencyMode));
    }
  }

  /** Each rung's live edge alone (a part came: the recording's playlist lists segments only). */
  async putWindows(rungs: readonly LiveRung[], segments: readonly PlaylistSegment[], lowLatency: RungListing): Promise<void> {
    await Promise.all(rungs.map((rung) => this.putWindow(rungs, rung, segments, false, lowLatency)));
  }

  private async putWindow(rungs: readonly LiveRung[], rung: LiveRung, segments: readonly PlaylistSegment[], ended: boolean, lowLatency?: RungListing) {
    const reports = rungs.filter((r) => r !== rung).map((r) => r.windowFolder);
    const listing = lowLatency && { ...lowLatency, reports };
    await this.store.putBuffer(this.key(`${rung.windowFolder}/index.m3u8`), windowPlaylist(segments, ended, this.latencyMode, rung.folder, listing));
  }

  /** Both masters, each rung's BANDWIDTH measured on `segment` (the recording's first). */
  async putMasters(rungs: readonly LiveRung[], segment: FinishedSegment, facts: MediaFacts): Promise<void> {
    const variants = (folder: (rung: LiveRung) => string): LiveMasterVariant[] =>
      rungs.map((rung, i) => {
        const size = rung.scale ?? facts.video;
        return {
          uri: `${folder(rung)}/index.m3u8`,
          bandwidth: bandwidthOf(segment.files[i].bytes, segment.duration),
          ...(size ? { width: size.width, height: size.height } : {}),
        };
      });
    const { captions } = this.renditions;
    await this.store.putBuffer(
      this.key('master.m3u8'),
      liveMasterPlaylist(
        variants((r) => r.folder),
        { captions, subtitles: this.subtitles(SUBTITLES_VARIANT) },
      ),
    );
    await this.store.putBuffer(
      this.key(LIVE_EDGE_MASTER),
      liveMasterPlaylist(
        variants((r) => r.windowFolder),
        { captions, subtitles: this.subtitles(SUBTITLES_WINDOW_VARIANT) },
      ),
    );
  }

  private subtitles(variant: string) {
    const subtitles = this.renditions.subtitles;
    return subtitles && { name: subtitles.name, languageCode: subtitles.languageCode, uri: `${variant}/index.m3u8` };
  }

  private key(path: string): string {
    return assetKeys.hls(this.assetId, path);
  }
}
