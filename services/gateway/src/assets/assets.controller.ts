import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { assets } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { OutboundUrls } from '../outbound/outbound-urls';
import { AnswersNotImplemented, ZodBody, ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { ASSETS_CLIENT } from './assets-client';
import { toAsset, toPlaybackId } from '@platform/api-shapes';
import { toCreateAssetRequest, toInputInfo } from './asset.mapper';
import {
  AssetListQuery,
  assetListQuery,
  assetListResponse,
  assetResponse,
  CreateAssetBody,
  createAssetBody,
  CreatePlaybackIdBody,
  createPlaybackIdBody,
  inputInfoResponse,
  playbackIdResponse,
  UpdateAssetBody,
  updateAssetBody,
} from './assets.schemas';
import { decodeCursor, encodeCursor } from './list-cursor';
import { refuseUnbuiltAssetFeatures, refuseUnbuiltPlaybackIdFeatures, refuseUnbuiltUpdateFeatures } from './unbuilt-features';

/** Spec 4.2 (tracks: AssetTracksController; mp4-support and master-access are still planned routes answering 501). */
@ApiTags('Assets')
@Controller('video/v1/assets')
export class AssetsController {
  constructor(
    @Inject(ASSETS_CLIENT) private readonly assets: assets.AssetsServiceClient,
    @Inject(OutboundUrls) private readonly outboundUrls: OutboundUrls,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an asset from the URL of a media file' })
  @ZodResponse(201, 'The new asset, `preparing`', assetResponse)
  @AnswersNotImplemented('fields of Mux features not built yet (DRM, MP4 renditions, master access, overlays, tracks, …)')
  async create(@ZodBody(createAssetBody) body: CreateAssetBody) {
    this.outboundUrls.checkAssetInputs(body);
    refuseUnbuiltAssetFeatures(body);
    return { data: toAsset(await firstValueFrom(this.assets.createAsset(toCreateAssetRequest(body)))) };
  }

  @Get()
  @ApiOperation({ summary: 'List assets, newest first' })
  @ZodResponse(200, 'A page of assets; `next_cursor` when the page was full', assetListResponse)
  async list(@ZodQuery(assetListQuery) query: AssetListQuery) {
    const page = query.cursor !== undefined ? decodeCursor(query.cursor) : query.page;
    const request = { limit: query.limit, page, live_stream_id: query.live_stream_id, upload_id: query.upload_id };
    const { items } = await firstValueFrom(this.assets.listAssets(request));
    return { data: items.map(toAsset), ...(items.length === query.limit ? { next_cursor: encodeCursor(page + 1) } : {}) };
  }

  @Get(':ASSET_ID')
  @ApiOperation({ summary: 'Retrieve an asset' })
  @ZodResponse(200, 'The asset', assetResponse)
  async get(@Param('ASSET_ID') id: string) {
    return { data: toAsset(await firstValueFrom(this.assets.getAsset({ id }))) };
  }

  @Patch(':ASSET_ID')
  @ApiOperation({ summary: 'Update the passthrough (an empty string clears it) or the thumbnail_time of an asset' })
  @ZodResponse(200, 'The updated asset', assetResponse)
  @AnswersNotImplemented('`meta`')
  async update(@Param('ASSET_ID') id: string, @ZodBody(updateAssetBody) body: UpdateAssetBody) {
    refuseUnbuiltUpdateFeatures(body);
    return { data: toAsset(await firstValueFrom(this.assets.updateAsset({ id, passthrough: body.passthrough, thumbnail_time: body.thumbnail_time }))) };
  }

  @Delete(':ASSET_ID/thumbnail-time')
  @HttpCode(204)
  @ApiOperation({ summary: 'Unset the thumbnail_time of an asset: thumbnails without a time return to the default (204 also when none was set)' })
  @ZodResponse(204, 'Unset')
  async deleteThumbnailTime(@Param('ASSET_ID') id: string): Promise<void> {
    await firstValueFrom(this.assets.deleteThumbnailTime({ id }));
  }

  @Delete(':ASSET_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an asset, its playback ids and all its stored media' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('ASSET_ID') id: string): Promise<void> {
    await firstValueFrom(this.assets.deleteAsset({ id }));
  }

  @Get(':ASSET_ID/input-info')
  @ApiOperation({ summary: 'Retrieve what was read from each input (empty until the input has been probed)' })
  @ZodResponse(200, 'Settings and file details per input', inputInfoResponse)
  async inputInfo(@Param('ASSET_ID') id: string) {
    return { data: (await firstValueFrom(this.assets.getInputInfo({ id }))).items.map(toInputInfo) };
  }

  @Post(':ASSET_ID/playback-ids')
  @ApiOperation({ summary: 'Create a playback id of an asset' })
  @ZodResponse(201, 'The new playback id', playbackIdResponse)
  @AnswersNotImplemented('DRM playback ids')
  async createPlaybackId(@Param('ASSET_ID') assetId: string, @ZodBody(createPlaybackIdBody) body: CreatePlaybackIdBody) {
    refuseUnbuiltPlaybackIdFeatures(body);
    return { data: toPlaybackId(await firstValueFrom(this.assets.createPlaybackId({ asset_id: assetId, policy: body.policy }))) };
  }

  @Get(':ASSET_ID/playback-ids/:PLAYBACK_ID')
  @ApiOperation({ summary: 'Retrieve a playback id of an asset' })
  @ZodResponse(200, 'The playback id', playbackIdResponse)
  async getPlaybackId(@Param('ASSET_ID') assetId: string, @Param('PLAYBACK_ID') playbackId: string) {
    return { data: toPlaybackId(await firstValueFrom(this.assets.getPlaybackId({ asset_id: assetId, playback_id: playbackId }))) };
  }

  @Delete(':ASSET_ID/playback-ids/:PLAYBACK_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a playback id of an asset: new playback with it fails at once' })
  @ZodResponse(204, 'Deleted')
  async deletePlaybackId(@Param('ASSET_ID') assetId: string, @Param('PLAYBACK_ID') playbackId: string): Promise<void> {
    await firstValueFrom(this.assets.deletePlaybackId({ asset_id: assetId, playback_id: playbackId }));
  }
}
