import { Inject, Injectable } from '@nestjs/common';
import { assetKeys, contentTypeOf, OBJECT_STORE, ObjectInfo, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { parseRange } from './byte-range';
import { PlaybackAccess, PlaybackAccessService, PlaybackRequest } from './playback-access.service';
import { PlaybackError } from './playback-error';
import { PlaybackGrants } from './playback-grants';
import { cacheControl, PlaybackFile } from './playback-headers';
import { rewriteMasterPlaylist, rewriteMediaPlaylist } from './playlist-rewrite';

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
export interface SegmentRequestHeaders {
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

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
  ) {}

  /**
   * `/{playback_id}.m3u8`: the master with every child URI under the playback id, granted. A live
   * stream's playback id while live gets the live-edge master (a sliding window), when the
   * recording has one.
   */
  async master(request: PlaybackRequest): Promise<PlaybackReply> {
    const access = await this.access.authorize(request);
    const liveEdge = access.liveEdge ? await this.playlist(access, LIVE_EDGE_MASTER).catch(() => undefined) : undefined;
    const stored = liveEdge ?? (await this.playlist(access, 'master.m3u8'));
    return this.playlistReply('master', access, rewriteMasterPlaylist(stored, access.playbackId, this.access.grantFor(access)));
  }

  /** `/{playback_id}/{variant}/index.m3u8`: segment URIs stay relative and carry the request's grant. */
  async variant(request: PlaybackRequest, variant: string): Promise<PlaybackReply> {
    const access = await this.access.authorizeChild(request);
    const stored = await this.playlist(access, `${variant}/index.m3u8`);
    // a child reached with a token instead of a grant hands its segments a fresh grant
    const grant = request.grant ?? this.access.grantFor(access);
    return this.playlistReply('variant', access, rewriteMediaPlaylist(stored, grant));
  }

  /** `/{playback_id}/{variant}/{segment}`: the stored bytes, whole or one range. */
  async segment(request: PlaybackRequest, variant: string, segment: string, headers: SegmentRequestHeaders, head: boolean): Promise<PlaybackReply> {
    const access = await this.access.authorizeChild(request);
    const key = assetKeys.hls(access.assetId, `${variant}/${segment}`);
    const info = await this.store.stat(key);
    if (!info) throw fileNotFound(`${variant}/${segment}`);

    const etag = quoted(info.etag);
    const validators = {
      etag,
      'last-modified': info.lastModified.toUTCString(),
      'cache-control': cacheControl('segment', access.signed, this.grants.seconds),
    };
    if (notModified(headers, etag, info)) return { status: 304, headers: validators };

    const common = { ...validators, 'content-type': contentTypeOf(segment), 'accept-ranges': 'bytes' };
    const range = rangeOf(headers, etag, info);
    if (range.kind === 'unsatisfiable') throw PlaybackError.rangeNotSatisfiable(info.size);
    if (range.kind === 'whole') {
      return { status: 200, headers: { ...common, 'content-length': String(info.size) }, body: head ? undefined : await this.open(key, segment) };
    }
    return {
      status: 206,
      headers: { ...common, 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${info.size}` },
      body: head ? undefined : await this.open(key, segment, { start: range.start, end: range.end }),
    };
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

  private async open(key: string, name: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream> {
    try {
      return await this.store.getStream(key, range);
    } catch (err) {
      // deleted between stat and read
      if (err instanceof ObjectNotFoundError) throw fileNotFound(name);
      throw err;
    }
  }
}

function fileNotFound(path: string): PlaybackError {
  return new PlaybackError(404, `Playback file ${path} not found`);
}

/** Stores differ: S3 ETags come quoted, others may not. HTTP wants the quotes. */
function quoted(etag: string): string {
  return /^(W\/)?".*"$/.test(etag) ? etag : `"${etag}"`;
}

function notModified(headers: SegmentRequestHeaders, etag: string, info: ObjectInfo): boolean {
  if (headers.ifNoneMatch !== undefined) {
    return headers.ifNoneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t === etag || t === `W/${etag}` || `W/${t}` === etag;
    });
  }
  if (headers.ifModifiedSince !== undefined) {
    const since = Date.parse(headers.ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(info.lastModified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** The range to serve; `If-Range` that no longer matches the object asks for the whole of it. */
function rangeOf(headers: SegmentRequestHeaders, etag: string, info: ObjectInfo) {
  const ifRange = headers.ifRange?.trim();
  if (ifRange !== undefined && ifRange !== etag && ifRange !== info.lastModified.toUTCString()) return { kind: 'whole' as const };
  return parseRange(headers.range, info.size);
}
