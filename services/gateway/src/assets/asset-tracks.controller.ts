import { Controller, Delete, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { toTrack } from '@platform/api-shapes';
import { assets } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { OutboundUrls } from '../outbound/outbound-urls';
import { ZodBody, ZodResponse } from '../validation/zod-decorators';
import { ASSETS_CLIENT } from './assets-client';
import { CreateTrackBody, createTrackBody, GenerateSubtitlesBody, generateSubtitlesBody, trackListResponse, trackResponse } from './asset-tracks.schemas';

/** Spec 4.2: the tracks of an asset (text and alternate audio tracks, generated subtitles). */
@ApiTags('Assets')
@Controller('video/v1/assets/:ASSET_ID/tracks')
export class AssetTracksController {
  constructor(
    @Inject(ASSETS_CLIENT) private readonly assets: assets.AssetsServiceClient,
    @Inject(OutboundUrls) private readonly outboundUrls: OutboundUrls,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Add a text track (SRT or WebVTT) or an alternate audio track from a URL to a ready asset' })
  @ZodResponse(201, 'The new track, `preparing`', trackResponse)
  async create(@Param('ASSET_ID') assetId: string, @ZodBody(createTrackBody) body: CreateTrackBody) {
    this.outboundUrls.check([{ field: 'url', url: body.url }]);
    return { data: toTrack(await firstValueFrom(this.assets.createTrack({ asset_id: assetId, ...body }))) };
  }

  @Delete(':TRACK_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a text track (video and audio tracks cannot be deleted)' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('ASSET_ID') assetId: string, @Param('TRACK_ID') trackId: string): Promise<void> {
    await firstValueFrom(this.assets.deleteTrack({ asset_id: assetId, track_id: trackId }));
  }

  @Post(':TRACK_ID/generate-subtitles')
  @ApiOperation({ summary: 'Generate subtitles from an audio track (up to 7 days after the asset was created)' })
  @ZodResponse(201, 'The new text tracks (`generated_vod`, `preparing`), one per entry', trackListResponse)
  async generateSubtitles(@Param('ASSET_ID') assetId: string, @Param('TRACK_ID') trackId: string, @ZodBody(generateSubtitlesBody) body: GenerateSubtitlesBody) {
    const { items } = await firstValueFrom(
      this.assets.generateSubtitles({ asset_id: assetId, track_id: trackId, generated_subtitles: body.generated_subtitles }),
    );
    return { data: items.map(toTrack) };
  }
}
