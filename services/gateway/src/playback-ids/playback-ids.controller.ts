import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { GrpcStatus } from '@platform/errors';
import { assets, live } from '@platform/proto';
import { LIVE_STREAMS_CLIENT } from '../live-streams/live-streams-client';
import { firstValueFrom } from 'rxjs';
import { ASSETS_CLIENT } from '../assets/assets-client';
import { ZodResponse } from '../validation/zod-decorators';
import { toPlaybackIdOwner } from './playback-id-owner.mapper';
import { playbackIdOwnerResponse } from './playback-ids.schemas';

/** Spec 4.4. */
@ApiTags('Playback IDs')
@Controller('video/v1/playback-ids')
export class PlaybackIdsController {
  constructor(
    @Inject(ASSETS_CLIENT) private readonly assets: assets.AssetsServiceClient,
    @Inject(LIVE_STREAMS_CLIENT) private readonly streams: live.LiveStreamsServiceClient,
  ) {}

  @Get(':PLAYBACK_ID')
  @ApiOperation({ summary: 'Find the asset (or live stream) a playback id belongs to' })
  @ZodResponse(200, 'The playback id and its owner', playbackIdOwnerResponse)
  async lookup(@Param('PLAYBACK_ID') id: string) {
    // Asset and live-stream playback ids live in their owners' services; ids are random, so at most one knows it.
    try {
      return { data: toPlaybackIdOwner(await firstValueFrom(this.assets.lookupPlaybackId({ id }))) };
    } catch (err) {
      if ((err as { code?: number }).code !== GrpcStatus.NOT_FOUND) throw err;
      return { data: toPlaybackIdOwner(await firstValueFrom(this.streams.lookupPlaybackId({ id }))) };
    }
  }
}
