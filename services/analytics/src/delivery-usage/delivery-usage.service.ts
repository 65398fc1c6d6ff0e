import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/errors';
import { deliveryUsage } from '@platform/proto';
import { DeliveryAssetProjection } from './delivery-asset.projection';
import { toDeliveryReport } from './delivery-report.mapper';
import { DeliveryUsageQuery } from './delivery-usage.query';
import { deliveryWindow } from './delivery-window';

/** Injection token of the clock (epoch ms) the reporting window is computed from. */
export const DELIVERY_USAGE_CLOCK = Symbol('DELIVERY_USAGE_CLOCK');

/** The largest page the service answers; the gateway clamps `limit` to it as well. */
export const MAX_DELIVERY_USAGE_LIMIT = 100;

/** Spec 000 §4.6: a page of usage records over the requested (or default) window. */
@Injectable()
export class DeliveryUsageService {
  constructor(
    @Inject(DeliveryUsageQuery) private readonly query: DeliveryUsageQuery,
    @Inject(DeliveryAssetProjection) private readonly assets: DeliveryAssetProjection,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(DELIVERY_USAGE_CLOCK) private readonly now: () => number,
  ) {}

  async list(request: deliveryUsage.ListDeliveryUsageRequest): Promise<deliveryUsage.DeliveryUsageList> {
    if (request.asset_id !== undefined && request.live_stream_id !== undefined) {
      throw DomainError.invalid('asset_id and live_stream_id cannot be combined');
    }
    const window = deliveryWindow({ start: request.timeframe_start, end: request.timeframe_end }, this.now() / 1000, this.config.deliveryUsage.lagSeconds);
    const limit = Math.min(Math.max(request.limit || MAX_DELIVERY_USAGE_LIMIT, 1), MAX_DELIVERY_USAGE_LIMIT);
    const page = Math.max(request.page || 1, 1);
    const { rows, total } = await this.query.page({
      window,
      ...(request.asset_id !== undefined ? { assetId: request.asset_id } : {}),
      ...(request.live_stream_id !== undefined ? { liveStreamId: request.live_stream_id } : {}),
      limit,
      offset: (page - 1) * limit,
    });
    const assets = await this.assets.find(rows.map((r) => r.asset_id));
    return {
      items: rows.map((r) => toDeliveryReport(r, assets.get(r.asset_id))),
      total_row_count: total,
      timeframe_start: window.start,
      timeframe_end: window.end,
    };
  }
}
