import { Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { toBroadcast, toSpace } from '@platform/api-shapes';
import { spaces } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { emptyDataResponse } from '../live-streams/live-streams.schemas';
import { Paging } from '../validation/paging';
import { ZodBody, ZodQuery, ZodResponse } from '../validation/zod-decorators';
import {
  BroadcastInputBody,
  broadcastInputBody,
  broadcastResponse,
  CreateSpaceBody,
  createSpaceBody,
  spaceListQuery,
  spaceListResponse,
  spaceResponse,
} from './spaces.schemas';

export const SPACES_CLIENT = Symbol('SpacesServiceClient');

/** Only the fields given go to the service, which applies the defaults. */
function toBroadcastInput(b: BroadcastInputBody): spaces.BroadcastInput {
  const { live_stream_id, passthrough, layout, background, resolution } = b;
  return { live_stream_id, passthrough, layout, background, resolution };
}

/** Spec 4.10: real-time rooms and their broadcasts to live streams. */
@ApiTags('Spaces')
@Controller('video/v1/spaces')
export class SpacesController {
  constructor(@Inject(SPACES_CLIENT) private readonly spaces: spaces.SpacesServiceClient) {}

  @Post()
  @ApiOperation({ summary: 'Create a space (with at most one broadcast by default)' })
  @ZodResponse(201, 'The new space', spaceResponse)
  async create(@ZodBody(createSpaceBody) body: CreateSpaceBody) {
    const created = await firstValueFrom(
      this.spaces.createSpace({ type: body.type, passthrough: body.passthrough, broadcasts: (body.broadcasts ?? []).map(toBroadcastInput) }),
    );
    return { data: toSpace(created) };
  }

  @Get()
  @ApiOperation({ summary: 'List spaces' })
  @ZodResponse(200, 'A page of spaces', spaceListResponse)
  async list(@ZodQuery(spaceListQuery) query: Paging) {
    return { data: (await firstValueFrom(this.spaces.listSpaces(query))).items.map(toSpace) };
  }

  @Get(':SPACE_ID')
  @ApiOperation({ summary: 'Retrieve a space' })
  @ZodResponse(200, 'The space', spaceResponse)
  async get(@Param('SPACE_ID') id: string) {
    return { data: toSpace(await firstValueFrom(this.spaces.getSpace({ id }))) };
  }

  @Delete(':SPACE_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a space (only while idle)' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('SPACE_ID') id: string): Promise<void> {
    await firstValueFrom(this.spaces.deleteSpace({ id }));
  }

  @Post(':SPACE_ID/broadcasts')
  @ApiOperation({ summary: 'Add a broadcast to a live stream' })
  @ZodResponse(201, 'The new broadcast', broadcastResponse)
  async createBroadcast(@Param('SPACE_ID') spaceId: string, @ZodBody(broadcastInputBody) body: BroadcastInputBody) {
    return { data: toBroadcast(await firstValueFrom(this.spaces.createBroadcast({ space_id: spaceId, broadcast: toBroadcastInput(body) }))) };
  }

  @Get(':SPACE_ID/broadcasts/:BROADCAST_ID')
  @ApiOperation({ summary: 'Retrieve a broadcast' })
  @ZodResponse(200, 'The broadcast', broadcastResponse)
  async getBroadcast(@Param('SPACE_ID') spaceId: string, @Param('BROADCAST_ID') broadcastId: string) {
    return { data: toBroadcast(await firstValueFrom(this.spaces.getBroadcast({ space_id: spaceId, broadcast_id: broadcastId }))) };
  }

  @Delete(':SPACE_ID/broadcasts/:BROADCAST_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a broadcast (only while idle)' })
  @ZodResponse(204, 'Deleted')
  async deleteBroadcast(@Param('SPACE_ID') spaceId: string, @Param('BROADCAST_ID') broadcastId: string): Promise<void> {
    await firstValueFrom(this.spaces.deleteBroadcast({ space_id: spaceId, broadcast_id: broadcastId }));
  }

  @Post(':SPACE_ID/broadcasts/:BROADCAST_ID/start')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start broadcasting the space to the live stream (only while the space is active)' })
  @ZodResponse(200, 'Started', emptyDataResponse)
  async start(@Param('SPACE_ID') spaceId: string, @Param('BROADCAST_ID') broadcastId: string) {
    await firstValueFrom(this.spaces.startBroadcast({ space_id: spaceId, broadcast_id: broadcastId }));
    return { data: {} };
  }

  @Post(':SPACE_ID/broadcasts/:BROADCAST_ID/stop')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop the broadcast; the live stream goes idle and is completed' })
  @ZodResponse(200, 'Stopped', emptyDataResponse)
  async stop(@Param('SPACE_ID') spaceId: string, @Param('BROADCAST_ID') broadcastId: string) {
    await firstValueFrom(this.spaces.stopBroadcast({ space_id: spaceId, broadcast_id: broadcastId }));
    return { data: {} };
  }
}
