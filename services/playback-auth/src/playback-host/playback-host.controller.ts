import { Controller, Get, Head, Header, HttpCode, NotFoundException, Param, UseFilters } from '@nestjs/common';
import { PlaybackHostErrorFilter } from './playback-host-error.filter';

/**
 * The playback host at {stream_url}. Until assets and live streams exist (next issues)
 * no playback id resolves, so every playback URL is a 404 in the API's error shape.
 */
@Controller()
@UseFilters(PlaybackHostErrorFilter)
export class PlaybackHostController {
  @Get('healthz')
  @Header('cache-control', 'no-store')
  health(): { status: string } {
    return { status: 'ok' };
  }

  @Get(':playbackFile')
  @Head(':playbackFile')
  @HttpCode(404)
  playback(@Param('playbackFile') file: string): never {
    throw new NotFoundException(`Playback ID ${file.replace(/\.m3u8$/, '')} not found`);
  }
}
