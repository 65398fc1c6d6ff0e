import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { deliveryUsage } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { toDeliveryReport } from './delivery-usage.mapper';
import { DeliveryUsageListQuery, deliveryUsageListQuery, deliveryUsageListResponse } from './delivery-usage.schemas';

export const DELIVERY_USAGE_CLIENT = Symbol('DeliveryUsageServiceClient');

/** Spec 000 §4.6: the window rules (90 days, the 12-hour lag, the default hour) are the analytics service's. */
@ApiTags('Delivery usage')
@Controller('video/v1/delivery-usage')
export class DeliveryUsageController {
  constructor(@Inject(DELIVERY_USAGE_CLIENT) private readonly usage: deliveryUsage.DeliveryUsageServiceClient) {}

  @Get()
  @ApiOperation({ summary: 'List delivery usage: seconds delivered per asset, highest first' })
  @ZodResponse(200, 'A page of usage records with the total count and the window reported', deliveryUsageListResponse)
  async list(@ZodQuery(deliveryUsageListQuery) query: DeliveryUsageListQuery) {
    const timeframe = query['timeframe[]'];
    const reply = await firstValueFrom(
      this.usage.listDeliveryUsage({
        page: query.page,
        limit: query.limit,
        ...(query.asset_id !== undefined ? { asset_id: query.asset_id } : {}),
        ...(query.live_stream_id !== undefined ? { live_stream_id: query.live_stream_id } : {}),
        ...(timeframe ? { timeframe_start: timeframe[0], timeframe_end: timeframe[1] } : {}),
      }),
    );
    return {
      data: reply.items.map(toDeliveryReport),
      total_row_count: reply.total_row_count,
      timeframe: [reply.timeframe_start, reply.timeframe_end],
      page: query.page,
      limit: query.limit,
    };
  }
}
