import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { playbackAuth } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { Paging } from '../validation/paging';
import { ZodBody, ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { toPlaybackRestriction } from '@platform/api-shapes';
import {
  CreatePlaybackRestrictionBody,
  createPlaybackRestrictionBody,
  playbackRestrictionListQuery,
  playbackRestrictionListResponse,
  playbackRestrictionResponse,
  ReferrerInput,
  referrerInput,
  UserAgentInput,
  userAgentInput,
} from './playback-restrictions.schemas';

export const PLAYBACK_RESTRICTIONS_CLIENT = Symbol('PlaybackRestrictionsServiceClient');

/** Spec 4.7. */
@ApiTags('Playback restrictions')
@Controller('video/v1/playback-restrictions')
export class PlaybackRestrictionsController {
  constructor(@Inject(PLAYBACK_RESTRICTIONS_CLIENT) private readonly restrictions: playbackAuth.PlaybackRestrictionsServiceClient) {}

  @Post()
  @ApiOperation({ summary: 'Create a playback restriction' })
  @ZodResponse(201, 'The new restriction', playbackRestrictionResponse)
  async create(@ZodBody(createPlaybackRestrictionBody) body: CreatePlaybackRestrictionBody) {
    const request = { referrer: body.referrer, user_agent: body.user_agent };
    return { data: toPlaybackRestriction(await firstValueFrom(this.restrictions.createPlaybackRestriction(request))) };
  }

  @Get()
  @ApiOperation({ summary: 'List playback restrictions' })
  @ZodResponse(200, 'A page of restrictions with the total count', playbackRestrictionListResponse)
  async list(@ZodQuery(playbackRestrictionListQuery) query: Paging) {
    const reply = await firstValueFrom(this.restrictions.listPlaybackRestrictions(query));
    return { data: reply.items.map(toPlaybackRestriction), total_row_count: reply.total_row_count, page: query.page, limit: query.limit };
  }

  @Get(':PLAYBACK_RESTRICTION_ID')
  @ApiOperation({ summary: 'Retrieve a playback restriction' })
  @ZodResponse(200, 'The restriction', playbackRestrictionResponse)
  async get(@Param('PLAYBACK_RESTRICTION_ID') id: string) {
    return { data: toPlaybackRestriction(await firstValueFrom(this.restrictions.getPlaybackRestriction({ id }))) };
  }

  @Delete(':PLAYBACK_RESTRICTION_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a playback restriction' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('PLAYBACK_RESTRICTION_ID') id: string): Promise<void> {
    await firstValueFrom(this.restrictions.deletePlaybackRestriction({ id }));
  }

  @Put(':PLAYBACK_RESTRICTION_ID/referrer')
  @ApiOperation({ summary: 'Replace the referrer rule of a playback restriction' })
  @ZodResponse(200, 'The updated restriction', playbackRestrictionResponse)
  async updateReferrer(@Param('PLAYBACK_RESTRICTION_ID') id: string, @ZodBody(referrerInput) referrer: ReferrerInput) {
    return { data: toPlaybackRestriction(await firstValueFrom(this.restrictions.updateReferrer({ id, referrer }))) };
  }

  @Put(':PLAYBACK_RESTRICTION_ID/user_agent')
  @ApiOperation({ summary: 'Replace the user-agent rule of a playback restriction' })
  @ZodResponse(200, 'The updated restriction', playbackRestrictionResponse)
  async updateUserAgent(@Param('PLAYBACK_RESTRICTION_ID') id: string, @ZodBody(userAgentInput) userAgent: UserAgentInput) {
    return { data: toPlaybackRestriction(await firstValueFrom(this.restrictions.updateUserAgent({ id, user_agent: userAgent }))) };
  }
}
