import Mux from '@mux/mux-node';
import { GrpcStatus } from '@platform/errors';
import { deliveryUsage } from '@platform/proto';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';
import { DELIVERY_USAGE_CLIENT } from './delivery-usage.controller';

const report = (over: Partial<deliveryUsage.DeliveryReport> = {}): deliveryUsage.DeliveryReport => ({
  asset_id: 'a1',
  asset_duration: 60.5,
  asset_state: 'ready',
  asset_resolution_tier: '1080p',
  asset_encoding_tier: 'smart',
  asset_video_quality: 'plus',
  created_at: 1700000000,
  delivered_seconds: 130,
  delivered_seconds_by_resolution: { tier_1080p: 100, tier_720p: 30 },
  ...over,
});

const list = (items: deliveryUsage.DeliveryReport[], total = items.length): deliveryUsage.DeliveryUsageList => ({
  items,
  total_row_count: total,
  timeframe_start: 1764201600,
  timeframe_end: 1764205200,
});

describe('delivery usage route (spec 000 §2.11, §4.6)', () => {
  let gw: TestGateway;
  let listDeliveryUsage: jest.SpyInstance;

  beforeAll(async () => {
    gw = await TestGateway.start();
    const client = gw.app.get<deliveryUsage.DeliveryUsageServiceClient>(DELIVERY_USAGE_CLIENT);
    listDeliveryUsage = jest.spyOn(client, 'listDeliveryUsage');
  });
  afterAll(() => gw.stop());
  beforeEach(() => listDeliveryUsage.mockReset());

  it('answers the envelope with string times, Mux’s defaults (page 1, limit 100) and the window reported', async () => {
    listDeliveryUsage.mockReturnValue(
      reply(list([report(), report({ asset_id: 'a2', asset_state: 'deleted', deleted_at: 1700000500, live_stream_id: 'ls1', passthrough: 'p' })], 7)),
    );
    const res = await gw.request('GET', '/video/v1/delivery-usage');
    expect(listDeliveryUsage).toHaveBeenCalledWith({ page: 1, limit: 100 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          asset_id: 'a1',
          asset_duration: 60.5,
          asset_state: 'ready',
          asset_resolution_tier: '1080p',
          asset_encoding_tier: 'smart',
          asset_video_quality: 'plus',
          created_at: '1700000000',
          delivered_seconds: 130,
          delivered_seconds_by_resolution: { tier_1080p: 100, tier_720p: 30 },
        },
        expect.objectContaining({ asset_id: 'a2', asset_state: 'deleted', deleted_at: '1700000500', live_stream_id: 'ls1', passthrough: 'p' }),
      ],
      total_row_count: 7,
      timeframe: [1764201600, 1764205200],
      page: 1,
      limit: 100,
    });
  });

  it('passes the timeframe, a filter and paging on, as the SDK sends them (timeframe[]=…&timeframe[]=…)', async () => {
    listDeliveryUsage.mockReturnValue(reply(list([])));
    const res = await gw.request('GET', '/video/v1/delivery-usage?timeframe[]=1764100000&timeframe[]=1764200000&asset_id=a1&page=3&limit=5');
    expect(res.status).toBe(200);
    expect(listDeliveryUsage).toHaveBeenCalledWith({ page: 3, limit: 5, asset_id: 'a1', timeframe_start: 1764100000, timeframe_end: 1764200000 });
    expect(res.body).toMatchObject({ data: [], page: 3, limit: 5 });
  });

  it('serves the official SDK: list({ timeframe }) pages until an empty page', async () => {
    listDeliveryUsage.mockImplementation(({ page }: { page: number }) => reply(list(page === 1 ? [report(), report({ asset_id: 'a2' })] : [], 2)));
    const mux = new Mux({ tokenId: gw.admin.id, tokenSecret: gw.admin.secret, baseURL: gw.baseUrl });
    const seen: string[] = [];
    for await (const record of mux.video.deliveryUsage.list({ timeframe: ['1764100000', '1764200000'], limit: 2 })) seen.push(record.asset_id);
    expect(seen).toEqual(['a1', 'a2']);
    expect(listDeliveryUsage.mock.calls.map(([request]) => request)).toEqual([
      { page: 1, limit: 2, timeframe_start: 1764100000, timeframe_end: 1764200000 },
      { page: 2, limit: 2, timeframe_start: 1764100000, timeframe_end: 1764200000 },
    ]);
  });

  it('takes a limit above 100 as 100', async () => {
    listDeliveryUsage.mockReturnValue(reply(list([])));
    await gw.request('GET', '/video/v1/delivery-usage?limit=1000&live_stream_id=ls1');
    expect(listDeliveryUsage).toHaveBeenCalledWith({ page: 1, limit: 100, live_stream_id: 'ls1' });
  });

  it.each([
    ['asset_id with live_stream_id', 'asset_id=a1&live_stream_id=ls1', 'asset_id: cannot be combined with live_stream_id'],
    ['one time', 'timeframe[]=1764100000', 'timeframe[]: must be two Unix times in seconds: the start, then the end'],
    ['three times', 'timeframe[]=1&timeframe[]=2&timeframe[]=3', 'timeframe[]: must be two Unix times in seconds: the start, then the end'],
    ['a time that is no integer', 'timeframe[]=1764100000&timeframe[]=soon', 'timeframe[]: must be two Unix times in seconds: the start, then the end'],
    ['a start after the end', 'timeframe[]=1764200000&timeframe[]=1764100000', 'timeframe[]: the start must be before the end'],
    ['page 0', 'page=0', 'page: must be at least 1'],
  ])('refuses %s with 400 and calls nothing', async (_label, query, message) => {
    const res = await gw.request('GET', `/video/v1/delivery-usage?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: [expect.stringContaining(message)] } });
    expect(listDeliveryUsage).not.toHaveBeenCalled();
  });

  it('answers the service’s refusal of a window (beyond the 12-hour lag, older than 90 days) as 400', async () => {
    listDeliveryUsage.mockReturnValue(grpcError(GrpcStatus.INVALID_ARGUMENT, ['timeframe: the end must be at least 12 hours before the request']));
    const res = await gw.request('GET', '/video/v1/delivery-usage?timeframe[]=1764100000&timeframe[]=1764200000');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: ['timeframe: the end must be at least 12 hours before the request'] } });
  });

  it('needs video:read', async () => {
    const token = await gw.token(['data:read']);
    const res = await gw.request('GET', '/video/v1/delivery-usage', { auth: token });
    expect(res.status).toBe(403);
    expect(listDeliveryUsage).not.toHaveBeenCalled();
  });
});
