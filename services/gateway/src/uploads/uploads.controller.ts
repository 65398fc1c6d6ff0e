import { Controller, Get, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { uploads } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { toUpload } from '@platform/api-shapes';
import { toCreateAssetRequest } from '../assets/asset.mapper';
import { refuseUnbuiltAssetFeatures } from '../assets/unbuilt-features';
import { OutboundUrls } from '../outbound/outbound-urls';
import { AnswersNotImplemented, ZodBody, ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { CreateUploadBody, createUploadBody, UploadListQuery, uploadListQuery, uploadListResponse, uploadResponse } from './uploads.schemas';
import { UPLOADS_CLIENT } from './uploads-client';

/** Spec 4.5. The bytes go to the upload's `url` (the uploads service's upload host), not here. */
@ApiTags('Direct uploads')
@Controller('video/v1/uploads')
export class UploadsController {
  constructor(
    @Inject(UPLOADS_CLIENT) private readonly uploads: uploads.UploadsServiceClient,
    @Inject(OutboundUrls) private readonly outboundUrls: OutboundUrls,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a direct upload: a URL to PUT a media file to' })
  @ZodResponse(201, 'The new upload, `waiting`, with its `url`', uploadResponse)
  @AnswersNotImplemented('new_asset_settings fields of Mux features not built yet')
  async create(@ZodBody(createUploadBody) body: CreateUploadBody) {
    if (body.new_asset_settings) {
      this.outboundUrls.checkAssetInputs(body.new_asset_settings, 'new_asset_settings.');
      refuseUnbuiltAssetFeatures(body.new_asset_settings, 'new_asset_settings.');
    }
    const request: uploads.CreateUploadRequest = {
      timeout: body.timeout,
      cors_origin: body.cors_origin,
      new_asset_settings: body.new_asset_settings ? toCreateAssetRequest(body.new_asset_settings) : undefined,
      test: body.test,
    };
    return { data: toUpload(await firstValueFrom(this.uploads.createUpload(request))) };
  }

  @Get()
  @ApiOperation({ summary: 'List direct uploads, newest first' })
  @ZodResponse(200, 'A page of uploads', uploadListResponse)
  async list(@ZodQuery(uploadListQuery) query: UploadListQuery) {
    return { data: (await firstValueFrom(this.uploads.listUploads(query))).items.map(toUpload) };
  }

  @Get(':UPLOAD_ID')
  @ApiOperation({ summary: 'Retrieve a direct upload' })
  @ZodResponse(200, 'The upload', uploadResponse)
  async get(@Param('UPLOAD_ID') id: string) {
    return { data: toUpload(await firstValueFrom(this.uploads.getUpload({ id }))) };
  }

  @Put(':UPLOAD_ID/cancel')
  @ApiOperation({ summary: 'Cancel a waiting upload: its URL stops working and no asset is made' })
  @ZodResponse(200, 'The upload, `cancelled`', uploadResponse)
  async cancel(@Param('UPLOAD_ID') id: string) {
    return { data: toUpload(await firstValueFrom(this.uploads.cancelUpload({ id }))) };
  }
}
