import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { assets } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { ASSETS_CLIENT } from '../assets/assets-client';
import { ZodResponse } from '../validation/zod-decorators';
import { toPlaybackIdOwner } from './playback-id-owner.mapper';
import { playbackIdOwnerResponse } from './playback-ids.schemas';

/** Spec 4.4. */
@ApiTags('Playback IDs')
@Controller('video/v1/playback-ids')
export class PlaybackIdsController {
  constructor(@Inject(ASSETS_CLIENT) private readonly assets: assets.AssetsServiceClient) {}

  @Get(':PLAYBACK_ID')
  @ApiOperation({ summary: 'Find the asset (or live stream) a playback id belongs to' })
  @ZodResponse(200, 'The playback id and its owner', playbackIdOwnerResponse)
  async lookup(@Param('PLAYBACK_ID') id: string) {
    return { data: toPlaybackIdOwner(await firstValueFrom(this.assets.lookupPlaybackId({ id }))) };
  }
}
