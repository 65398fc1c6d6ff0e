import { All, Controller, Get, Head, Header, Inject, Options, Param, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DownloadsService } from './downloads.service';
import { DeliveryDirectives, deliveryDirectives } from './low-latency-playlist';
import { PlaybackRequest } from './playback-access.service';
import { PlaybackError } from './playback-error';
import { PlaybackHostErrorFilter } from './playback-host-error.filter';
import { PlaybackHostService } from './playback-host.service';
import { PREFLIGHT_HEADERS } from './playback-headers';
import { sendReply } from './send-reply';
import { StreamHostOnly } from './served-on.guard';
import { FileRequestHeaders } from './stored-object-reply';

const PLAYBACK_ID = /^[A-Za-z0-9]{1,255}$/;
/** A variant or segment name as the transcoder writes them; never a path (`/`, `..`). */
const SAFE_NAME = /^(?!\.+$)[A-Za-z0-9_.-]{1,255}$/;
/** The names static renditions have (SDK 15 StaticRendition.name). */
const STATIC_NAME = /^(?:(?:low|medium|high|highest|capped-1080p|(?:2160|1440|1080|720|540|480|360|270)p)\.mp4|audio\.m4a)$/;
/** A master URL's token: 32 random bytes, base64url. */
const MASTER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The playback host at {stream_url} (HLS). Routes only parse the request; who may play is
 * PlaybackAccessService's, what is served PlaybackHostService's. The same app serves the image
 * host on IMAGE_PORT: file routes answer on the stream port only (StreamHostOnly); health, CORS
 * preflight and the catch-all on both.
 */
@Controller()
@UseFilters(PlaybackHostErrorFilter)
export class PlaybackHostController {
  constructor(
    @Inject(PlaybackHostService) private readonly host: PlaybackHostService,
    @Inject(DownloadsService) private readonly downloads: DownloadsService,
  ) {}

  @Get('healthz')
  @Header('cache-control', 'no-store')
  health(): { status: string } {
    return { status: 'ok' };
  }

  /** `/{playback_id}.m3u8`, and `/{playback_id}` as spec 1 writes the playback URL. */
  @UseGuards(StreamHostOnly)
  @Get(':file')
  @Head(':file')
  async master(@Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const playbackId = file.endsWith('.m3u8') ? file.slice(0, -'.m3u8'.length) : file;
    if (!PLAYBACK_ID.test(playbackId)) throw PlaybackError.notFound(playbackId);
    sendReply(res, await this.host.master(playbackRequest(playbackId, req)), isHead(req));
  }

  /** `/{playback_id}/{name}`: a static MP4/M4A rendition (`high.mp4`, `1080p.mp4`, `audio.m4a`, …); `?download=` names an attachment. */
  @UseGuards(StreamHostOnly)
  @Get(':playbackId/:file')
  @Head(':playbackId/:file')
  async staticRendition(@Param('playbackId') playbackId: string, @Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!PLAYBACK_ID.test(playbackId)) throw PlaybackError.notFound(playbackId);
    if (!STATIC_NAME.test(file)) throw new PlaybackError(404, `Playback file ${file} not found`);
    const reply = await this.downloads.staticRendition(playbackRequest(playbackId, req), file, fileHeaders(req), isHead(req), queryString(req.query.download));
    sendReply(res, reply, isHead(req));
  }

  /** `/master/{token}/master.mp4`: a temporary master MP4, for whoever has the URL while it is valid. Before the child route, which it would match. */
  @UseGuards(StreamHostOnly)
  @Get('master/:token/:file')
  @Head('master/:token/:file')
  async masterFile(@Param('token') token: string, @Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!MASTER_TOKEN.test(token) || file !== 'master.mp4') throw new PlaybackError(404, 'Master not found: the URL expired or master access was removed');
    sendReply(res, await this.downloads.master(token, fileHeaders(req), isHead(req), queryString(req.query.download)), isHead(req));
  }

  @UseGuards(StreamHostOnly)
  @Get(':playbackId/:variant/:file')
  @Head(':playbackId/:variant/:file')
  async child(
    @Param('playbackId') playbackId: string,
    @Param('variant') variant: string,
    @Param('file') file: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (!PLAYBACK_ID.test(playbackId)) throw PlaybackError.notFound(playbackId);
    if (!SAFE_NAME.test(variant) || !SAFE_NAME.test(file)) throw new PlaybackError(404, 'Playback file not found');
    const request = playbackRequest(playbackId, req);
    const reply =
      file === 'index.m3u8'
        ? await this.host.variant(request, variant, directivesOf(req))
        : await this.host.segment(request, variant, file, fileHeaders(req), isHead(req));
    sendReply(res, reply, isHead(req));
  }

  @Options('{*path}')
  preflight(@Res() res: Response): void {
    res.status(204).set(PREFLIGHT_HEADERS).end();
  }

  /** Anything else (on either host) is not a playback URL (Nest's own 404 would not carry the error body). */
  @All('{*path}')
  unknown(@Req() req: Request): never {
    throw new PlaybackError(404, `Not a playback URL: ${req.method} ${req.path}`);
  }
}

function playbackRequest(playbackId: string, req: Request): PlaybackRequest {
  return {
    playbackId,
    token: queryString(req.query.token),
    grant: queryString(req.query.grant),
    referer: req.get('referer'),
    userAgent: req.get('user-agent'),
  };
}

/** The conditional and range headers of a request for a stored file. */
function fileHeaders(req: Request): FileRequestHeaders {
  return { range: req.get('range'), ifRange: req.get('if-range'), ifNoneMatch: req.get('if-none-match'), ifModifiedSince: req.get('if-modified-since') };
}

/** LL-HLS's `_HLS_msn`, `_HLS_part`, `_HLS_skip`; malformed ones are a 400. */
function directivesOf(req: Request): DeliveryDirectives {
  const directives = deliveryDirectives(req.query);
  if (directives && 'error' in directives) throw new PlaybackError(400, directives.error);
  return directives ?? {};
}

/** One value of a query parameter; a repeated or nested one counts as absent. */
function queryString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isHead(req: Request): boolean {
  return req.method === 'HEAD';
}
