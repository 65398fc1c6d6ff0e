import { Controller, Delete, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { toAsset, toStaticRendition } from '@platform/api-shapes';
import { assets } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { ZodBody, ZodResponse } from '../validation/zod-decorators';
import { assetResponse } from './assets.schemas';
import { STATIC_RENDITIONS_CLIENT } from './static-renditions-client';
import {
  CreateStaticRenditionBody,
  createStaticRenditionBody,
  staticRenditionResponse,
  UpdateMasterAccessBody,
  updateMasterAccessBody,
  UpdateMp4SupportBody,
  updateMp4SupportBody,
} from './static-renditions.schemas';

/**
 * Spec 4.2 mp4-support and master-access, and Mux's Static Renditions API (SDK 15
 * createStaticRendition / deleteStaticRendition). The files are served by the playback host at
 * `{stream_url}/{playback_id}/{name}`; a master's `url` needs no credentials.
 */
@ApiTags('Assets')
@Controller('video/v1/assets')
export class StaticRenditionsController {
  constructor(@Inject(STATIC_RENDITIONS_CLIENT) private readonly renditions: assets.StaticRenditionsServiceClient) {}

  @Put(':ASSET_ID/mp4-support')
  @ApiOperation({ summary: 'Add or remove the static MP4 renditions of mp4_support (`none` deletes them)' })
  @ZodResponse(200, 'The asset, `static_renditions.status` preparing (or absent after `none`)', assetResponse)
  async updateMp4Support(@Param('ASSET_ID') id: string, @ZodBody(updateMp4SupportBody) body: UpdateMp4SupportBody) {
    return { data: toAsset(await firstValueFrom(this.renditions.updateMp4Support({ asset_id: id, mp4_support: body.mp4_support }))) };
  }

  @Put(':ASSET_ID/master-access')
  @ApiOperation({ summary: 'Add or remove temporary access to the master MP4' })
  @ZodResponse(200, 'The asset, `master.status` preparing (or no `master` after `none`)', assetResponse)
  async updateMasterAccess(@Param('ASSET_ID') id: string, @ZodBody(updateMasterAccessBody) body: UpdateMasterAccessBody) {
    return { data: toAsset(await firstValueFrom(this.renditions.updateMasterAccess({ asset_id: id, master_access: body.master_access }))) };
  }

  @Post(':ASSET_ID/static-renditions')
  @ApiOperation({ summary: 'Create a static rendition (an MP4 or M4A) of an asset' })
  @ZodResponse(201, 'The new rendition, `preparing`', staticRenditionResponse)
  async create(@Param('ASSET_ID') id: string, @ZodBody(createStaticRenditionBody) body: CreateStaticRenditionBody) {
    const file = await firstValueFrom(this.renditions.createStaticRendition({ asset_id: id, resolution: body.resolution, passthrough: body.passthrough }));
    return { data: toStaticRendition(file) };
  }

  @Delete(':ASSET_ID/static-renditions/:STATIC_RENDITION_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a static rendition and its file' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('ASSET_ID') id: string, @Param('STATIC_RENDITION_ID') renditionId: string): Promise<void> {
    await firstValueFrom(this.renditions.deleteStaticRendition({ asset_id: id, static_rendition_id: renditionId }));
  }
}
