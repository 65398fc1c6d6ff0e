import { Inject, Injectable } from '@nestjs/common';
import { assetKeys, OBJECT_STORE, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { DeliveryMeter } from './delivery-meter';
import { PlaybackAccess, PlaybackAccessService, PlaybackRequest } from './playback-access.service';
import { PlaybackError } from './playback-error';
import { PlaybackGrants } from './playback-grants';
import { cacheControl, PlaybackFile } from './playback-headers';
import { rewriteMasterPlaylist, rewriteMediaPlaylist } from './playlist-rewrite';
import { DeliveryDirectives, deltaUpdate, playlistEdge } from './low-latency-playlist';
import { LowLatencyWaits } from './low-latency-waits';
import { SegmentCatalog } from './segment-catalog';
import { withTrackRenditions } from './track-renditions';
import { FileRequestHeaders, storedFileReply } from './stored-object-reply';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
/** The parts of a low-latency live recording (`s1_part00012.ts`): a request for one may come before it is stored. */
const LOW_LATENCY_PART = /_part\d+\.ts$/;
/** Written by the live ingest next to `master.m3u8` while a recording is live. */
const LIVE_EDGE_MASTER = 'live-edge.m3u8';

/** What to answer; `body` is absent for HEAD and 304, a stream for segments. */
export interface PlaybackReply {
  status: number;
  headers: Record<string, string>;
  body?: Buffer | NodeJS.ReadableStream;
}

/** Conditional and range headers of a segment request. */
export type SegmentRequestHeaders = FileRequestHeaders;

/**
 * The files of the playback host, read from the object store where the transcoder wrote
 * them (`assets/{asset_id}/hls/…`). Playlists get the grant on their child URIs; segments
 * are streamed as stored, with ranges and validators.
 */
@Injectable()
export class PlaybackHostService {
  constructor(
    @Inject(PlaybackAccessService) private readonly access: PlaybackAccessService,
    @Inject(PlaybackGrants) private readonly grants: PlaybackGrants,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(SegmentCatalog) private readonly catalog: SegmentCatalog,
    @Inject(DeliveryMeter) private readonly meter: DeliveryMeter,
    @Inject(LowLatencyWaits) private readonly waits: LowLatencyWaits,
  ) {}

  /**
   * `/{playback_id}.m3u8`: the master with every child URI under the playback id, granted. A live
   * stream's playback id while live gets the live-edge master (a sliding window), when the
   * recording has one. An asset's master gets its tracks' renditions (SUBTITLES and AUDIO groups),
   * composed here from the lookup on top of the stored master of its variants.
   */
  async master(request: PlaybackRequest): Promise<PlaybackReply> {
    const access = await this.access.authorize(request);
    const liveEdge = access.liveEdge ? await this.playlist(access, LIVE_EDGE_MASTER).catch(() => undefined) : undefined;
    const master = liveEdge ?? (await this.playlist(access, 'master.m3u8'));
    this.catalog.learnMaster(access.assetId, master);
    const stored = liveEdge ?? withTrackRenditions(master, access.renditions ?? []);
    return this.playlistReply('master', access, rewriteMasterPlaylist(stored, access.playbackId, this.access.grantFor(access)));
  }

  /**
   * `/{playback_id}/{variant}/index.m3u8`: segment URIs stay relative and carry the request's grant.
   * A low-latency live edge honours LL-HLS's directives: `_HLS_msn`/`_HLS_part` hold the request until
   * the playlist has that segment or part, `_HLS_skip` answers with a delta update.
   */
  async variant(request: PlaybackRequest, variant: string, directives: DeliveryDirectives = {}): Promise<PlaybackReply> {
    const access = await this.access.authorizeChild(request);
    const path = `${variant}/index.m3u8`;
    let stored = await this.playlist(access, path);
    if (directives.msn !== undefined) stored = await this.waits.playlistReaching(assetKeys.hls(access.assetId, path), stored, directives.msn, directives.part);
    this.catalog.learnMedia(access.assetId, variant, stored);
    // a child reached with a token instead of a grant hands its segments a fresh grant
    const grant = request.grant ?? this.access.grantFor(access);
    const served = directives.skip ? deltaUpdate(stored) : stored;
    const file = playlistEdge(stored).canBlock && directives.msn === undefined ? 'live-edge' : 'variant';
    return this.playlistReply(file, access, rewriteMediaPlaylist(served, grant));
  }

  /** `/{playback_id}/{variant}/{segment}`: the stored bytes, whole or one range. */
  async segment(request: PlaybackRequest, variant: string, segment: string, headers: SegmentRequestHeaders, head: boolean): Promise<PlaybackReply> {
    const access = await this.access.authorizeChild(request);
    const file = {
      key: assetKeys.hls(access.assetId, `${variant}/${segment}`),
      name: segment,
      cacheControl: cacheControl('segment', access.signed, this.grants.seconds),
    };
    // the part a low-latency playlist hints at is asked for before it exists: held until it is stored
    if (LOW_LATENCY_PART.test(segment)) await this.waits.partStored(file.key);
    const reply = await storedFileReply(this.store, file, headers, head, () => fileNotFound(`${variant}/${segment}`));
    if (!head) this.meterSegment(access, variant, segment, reply);
    return reply;
  }

  /** Delivery usage: a segment's bytes and (its share of) media seconds, when it is sent (200 or 206). */
  private meterSegment(access: PlaybackAccess, folder: string, name: string, reply: PlaybackReply): void {
    if (reply.status !== 200 && reply.status !== 206) return;
    const bytes = Number(reply.headers['content-length'] ?? 0);
    const total = Number(/\/(\d+)$/.exec(reply.headers['content-range'] ?? '')?.[1] ?? bytes);
    this.meter.segmentServed({ playbackId: access.playbackId, assetId: access.assetId, folder, name, bytes, share: total > 0 ? bytes / total : 1 });
  }

  private async playlist(access: PlaybackAccess, path: string): Promise<string> {
    try {
      return (await this.store.getBuffer(assetKeys.hls(access.assetId, path))).toString('utf8');
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw path === 'master.m3u8' ? PlaybackError.notFound(access.playbackId) : fileNotFound(path);
      throw err;
    }
  }

  private playlistReply(file: PlaybackFile, access: PlaybackAccess, text: string): PlaybackReply {
    const body = Buffer.from(text, 'utf8');
    return {
      status: 200,
      headers: {
        'content-type': PLAYLIST_TYPE,
        'content-length': String(body.length),
        'cache-control': cacheControl(file, access.signed, this.grants.seconds),
      },
      body,
    };
  }
}

function fileNotFound(path: string): PlaybackError {
  return new PlaybackError(404, `Playback file ${path} not found`);
}
