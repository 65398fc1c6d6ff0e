import { Controller, Get, Head, Inject, Param, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PlaybackError } from '../playback-host/playback-error';
import { PlaybackHostErrorFilter } from '../playback-host/playback-host-error.filter';
import { sendReply } from '../playback-host/send-reply';
import { ImageHostOnly } from '../playback-host/served-on.guard';
import { ImageHostService, ImageHttpRequest } from './image-host.service';

const PLAYBACK_ID = /^[A-Za-z0-9]{1,255}$/;

/**
 * The image host at {image_url} (IMAGE_PORT): Mux's image.mux.com paths. Its routes are registered before
 * the playback host's and answer only on the image port; everything else there falls through to the
 * playback host's controller, whose file routes refuse it and whose health check and CORS preflight
 * answer on both ports.
 */
@Controller()
@UseFilters(PlaybackHostErrorFilter)
@UseGuards(ImageHostOnly)
export class ImageHostController {
  constructor(@Inject(ImageHostService) private readonly images: ImageHostService) {}

  @Get(':playbackId/thumbnail.:ext')
  @Head(':playbackId/thumbnail.:ext')
  thumbnail(@Param('playbackId') playbackId: string, @Param('ext') ext: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(playbackId, `thumbnail.${ext}`, req, res);
  }

  @Get(':playbackId/animated.:ext')
  @Head(':playbackId/animated.:ext')
  animated(@Param('playbackId') playbackId: string, @Param('ext') ext: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(playbackId, `animated.${ext}`, req, res);
  }

  @Get(':playbackId/storyboard.:ext')
  @Head(':playbackId/storyboard.:ext')
  storyboard(@Param('playbackId') playbackId: string, @Param('ext') ext: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(playbackId, `storyboard.${ext}`, req, res);
  }

  private async serve(playbackId: string, file: string, req: Request, res: Response): Promise<void> {
    if (!PLAYBACK_ID.test(playbackId)) throw PlaybackError.notFound(playbackId);
    sendReply(res, await this.images.serve(imageRequest(playbackId, file, req)), req.method === 'HEAD');
  }
}

function imageRequest(playbackId: string, file: string, req: Request): ImageHttpRequest {
  const query: Record<string, string> = {};
  // a repeated or nested parameter counts as absent
  for (const [name, value] of Object.entries(req.query)) if (typeof value === 'string') query[name] = value;
  return {
    playbackId,
    file,
    query,
    token: query.token,
    referer: req.get('referer'),
    userAgent: req.get('user-agent'),
    ifNoneMatch: req.get('if-none-match'),
    host: req.get('host'),
    forwardedHost: req.get('x-forwarded-host'),
    forwardedProto: req.get('x-forwarded-proto'),
  };
}
