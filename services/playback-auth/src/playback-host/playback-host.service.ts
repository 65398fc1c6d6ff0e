import { Inject, Injectable } from '@nestjs/common';
import { assetKeys, OBJECT_STORE, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { DeliveryMeter } from './delivery-meter';
import { PlaybackAccess, PlaybackAccessService, PlaybackRequest } from './playback-access.service';
import { PlaybackError } from './playback-error';
import { PlaybackGrants } from './playback-grants';
import { cacheControl, PlaybackFile } from './playback-headers';
import { rewriteMasterPlaylist, rewriteMediaPlaylist } from './playlist-rewrite';
import { SegmentCatalog } from './segment-catalog';
import { withTrackRenditions } from './track-renditions';
import { FileRequestHeaders, storedFileReply } from './stored-object-reply';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
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

  /** `/{playback_id}/{variant}/index.m3u8`: segment URIs stay relative and carry the request's grant. */
  async variant(request: PlaybackRequest, variant: string): Promise<PlaybackReply> {
    const access = await this.access.authorizeChild(request);
    const stored = await this.playlist(access, `${variant}/index.m3u8`);
    this.catalog.learnMedia(access.assetId, variant, stored);
    // a child reached with a token instead of a grant hands its segments a fresh grant
    const grant = request.grant ?? this.access.grantFor(access);
    return this.playlistReply('variant', access, rewriteMediaPlaylist(stored, grant));
  }

  /** `/{playback_id}/{variant}/{segment}`: the stored bytes, whole or one range. */
  async segment(request: PlaybackRequest, variant: string, segment: string, headers: SegmentRequestHeaders, head: boolean): Promise<PlaybackReply> {
    const access = await this.access.authorizeChild(request);
    const file = {
      key: assetKeys.hls(access.assetId, `${variant}/${segment}`),
      name: segment,
      cacheControl: cacheControl('segment', access.signed, this.grants.seconds),
    };
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
