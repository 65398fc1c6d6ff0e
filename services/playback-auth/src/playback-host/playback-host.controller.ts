import { All, Controller, Get, Head, Header, Inject, Options, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PlaybackRequest } from './playback-access.service';
import { PlaybackError } from './playback-error';
import { PlaybackHostErrorFilter } from './playback-host-error.filter';
import { PlaybackHostService } from './playback-host.service';
import { PREFLIGHT_HEADERS } from './playback-headers';
import { sendReply } from './send-reply';

const PLAYBACK_ID = /^[A-Za-z0-9]{1,255}$/;
/** A variant or segment name as the transcoder writes them; never a path (`/`, `..`). */
const SAFE_NAME = /^(?!\.+$)[A-Za-z0-9_.-]{1,255}$/;

/**
 * The playback host at {stream_url} (HLS). Routes only parse the request; who may play is
 * PlaybackAccessService's, what is served PlaybackHostService's.
 */
@Controller()
@UseFilters(PlaybackHostErrorFilter)
export class PlaybackHostController {
  constructor(@Inject(PlaybackHostService) private readonly host: PlaybackHostService) {}

  @Get('healthz')
  @Header('cache-control', 'no-store')
  health(): { status: string } {
    return { status: 'ok' };
  }

  /** `/{playback_id}.m3u8`, and `/{playback_id}` as spec 1 writes the playback URL. */
  @Get(':file')
  @Head(':file')
  async master(@Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const playbackId = file.endsWith('.m3u8') ? file.slice(0, -'.m3u8'.length) : file;
    if (!PLAYBACK_ID.test(playbackId)) throw PlaybackError.notFound(playbackId);
    sendReply(res, await this.host.master(playbackRequest(playbackId, req)), isHead(req));
  }

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
        ? await this.host.variant(request, variant)
        : await this.host.segment(
            request,
            variant,
            file,
            { range: req.get('range'), ifRange: req.get('if-range'), ifNoneMatch: req.get('if-none-match'), ifModifiedSince: req.get('if-modified-since') },
            isHead(req),
          );
    sendReply(res, reply, isHead(req));
  }

  @Options('{*path}')
  preflight(@Res() res: Response): void {
    res.status(204).set(PREFLIGHT_HEADERS).end();
  }

  /** Anything else is not a playback URL (Nest's own 404 would not carry the error body). */
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

/** One value of a query parameter; a repeated or nested one counts as absent. */
function queryString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isHead(req: Request): boolean {
  return req.method === 'HEAD';
}
