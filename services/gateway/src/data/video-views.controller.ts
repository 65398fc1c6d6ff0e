import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { analytics } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { dataEnvelope, resolveDataQuery, toGrpcDataQuery } from './data-query.schemas';
import { videoViewListQuery, videoViewListResponse, videoViewResponse } from './video-views.schemas';
import { z } from 'zod';

export const ANALYTICS_CLIENT = Symbol('AnalyticsServiceClient');

/** Spec 001 §4: video views. */
@ApiTags('Video views')
@Controller('data/v1/video-views')
export class VideoViewsController {
  constructor(@Inject(ANALYTICS_CLIENT) private readonly analytics: analytics.AnalyticsServiceClient) {}

  @Get()
  @ApiOperation({ summary: 'List video views whose view_end falls in the timeframe' })
  @ZodResponse(200, 'A page of views', videoViewListResponse)
  async list(@ZodQuery(videoViewListQuery) raw: z.output<typeof videoViewListQuery>) {
    const query = resolveDataQuery(raw);
    const reply = await firstValueFrom(
      this.analytics.listVideoViews({
        query: toGrpcDataQuery(query),
        limit: raw.limit,
        page: raw.page,
        order_direction: raw.order_direction,
        viewer_id: raw.viewer_id,
        error_id: raw.error_id,
      }),
    );
    return dataEnvelope(reply, query.timeframe);
  }

  @Get(':VIDEO_VIEW_ID')
  @ApiOperation({ summary: 'Retrieve a video view with its events' })
  @ZodResponse(200, 'The view', videoViewResponse)
  async get(@Param('VIDEO_VIEW_ID') id: string) {
    const reply = await firstValueFrom(this.analytics.getVideoView({ id }));
    const view = JSON.parse(reply.data_json) as { view_start: string; view_end: string | null };
    const start = Math.floor(Date.parse(view.view_start) / 1000);
    const end = view.view_end ? Math.floor(Date.parse(view.view_end) / 1000) : start;
    return { data: view, total_row_count: null, timeframe: [start, end] };
  }
}
