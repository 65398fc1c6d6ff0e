import { Controller, Delete, HttpCode, Inject, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { toLiveStream, withoutAbsent } from '@platform/api-shapes';
import { live } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { NewAssetStaticRenditionsBody, newAssetStaticRenditionsBody } from '../assets/static-renditions.schemas';
import { ZodBody, ZodResponse } from '../validation/zod-decorators';
import { LIVE_STREAMS_CLIENT } from './live-streams-client';
import { liveStreamResponse } from './live-streams.schemas';

/**
 * Mux's SDK routes for the static renditions of a live stream's next recordings
 * (`updateNewAssetSettingsStaticRenditions`, `deleteNewAssetSettingsStaticRenditions`): they set
 * `new_asset_settings.static_renditions`; each recording then asks for them at its creation.
 */
@ApiTags('Live streams')
@Controller('video/v1/live-streams')
export class NewAssetStaticRenditionsController {
  constructor(@Inject(LIVE_STREAMS_CLIENT) private readonly streams: live.LiveStreamsServiceClient) {}

  @Put(':LIVE_STREAM_ID/new-asset-settings/static-renditions')
  @ApiOperation({ summary: 'Set the static renditions of the live stream’s next recordings (replacing those it had)' })
  @ZodResponse(200, 'The live stream', liveStreamResponse)
  async update(@Param('LIVE_STREAM_ID') id: string, @ZodBody(newAssetStaticRenditionsBody) body: NewAssetStaticRenditionsBody) {
    const renditions = body.static_renditions.map((r) => withoutAbsent({ resolution: r.resolution, passthrough: r.passthrough }));
    return { data: toLiveStream(await firstValueFrom(this.streams.updateNewAssetStaticRenditions({ id, static_renditions: renditions }))) };
  }

  @Delete(':LIVE_STREAM_ID/new-asset-settings/static-renditions')
  @HttpCode(204)
  @ApiOperation({ summary: 'Make the live stream’s next recordings without static renditions' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('LIVE_STREAM_ID') id: string): Promise<void> {
    await firstValueFrom(this.streams.deleteNewAssetStaticRenditions({ id }));
  }
}
