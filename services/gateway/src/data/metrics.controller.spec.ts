import { grpcError, reply, TestGateway } from '../testing/test-gateway';

const metricRows = (data: unknown, meta: Record<string, string>, total?: number) =>
  reply({ data_json: JSON.stringify(data), meta, ...(total === undefined ? {} : { total_row_count: total }) });
const TF = 'timeframe[]=1700000000&timeframe[]=1700086400';
const query = { timeframe: { start: 1_700_000_000, end: 1_700_086_400 }, filters: [], metric_filters: [] };

describe('Data API metrics routes (spec 001 §2.4)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('overall: the object under data, meta, total_row_count null; measurement passed on', async () => {
    const overall = { value: 1200, total_views: 9, total_watch_time: 3_240_000, total_playing_time: 3_231_000, global_value: 1100 };
    gw.analytics.getMetricOverall.mockReturnValue(metricRows(overall, { aggregation: 'view_end' }));
    const res = await gw.request('GET', `/data/v1/metrics/video_startup_time/overall?${TF}&measurement=95th&filters[]=country:DE`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: overall, meta: { aggregation: 'view_end' }, total_row_count: null, timeframe: [1_700_000_000, 1_700_086_400] });
    expect(gw.analytics.getMetricOverall).toHaveBeenCalledWith({
      metric_id: 'video_startup_time',
      measurement: '95th',
      query: { ...query, filters: [{ dimension: 'country', value: 'DE', negate: false }] },
    });
  });

  it('breakdown: group_by resolved (aliases too), defaults negative_impact desc, 25 a page', async () => {
    const row = { field: 'Chrome', value: 1400, views: 3, negative_impact: 66.7, total_watch_time: 1, total_playing_time: 1 };
    gw.analytics.listMetricBreakdown.mockReturnValue(metricRows([row], { aggregation: 'view_end' }, 3));
    const res = await gw.request('GET', `/data/v1/metrics/video_startup_time/breakdown?${TF}&group_by=player_mux_plugin_name`);
    expect(res.body).toEqual({ data: [row], meta: { aggregation: 'view_end' }, total_row_count: 3, timeframe: [1_700_000_000, 1_700_086_400] });
    expect(gw.analytics.listMetricBreakdown).toHaveBeenCalledWith({
      metric: { metric_id: 'video_startup_time', measurement: undefined, query },
      group_by: 'player_svc_plugin_name',
      order_by: 'negative_impact',
      order_direction: 'desc',
      limit: 25,
      page: 1,
    });
  });

  it('timeseries: points, meta with the granularity; group_by and order passed on', async () => {
    const points = [['2023-11-14T22:00:00.000Z', '3', '3']];
    gw.analytics.listMetricTimeseries.mockReturnValue(metricRows(points, { aggregation: 'view_start', granularity: 'hour' }, 1));
    const res = await gw.request('GET', `/data/v1/metrics/views/timeseries?${TF}&group_by=hour&order_direction=desc`);
    expect(res.body).toEqual({
      data: points,
      meta: { aggregation: 'view_start', granularity: 'hour' },
      total_row_count: 1,
      timeframe: [1_700_000_000, 1_700_086_400],
    });
    expect(gw.analytics.listMetricTimeseries).toHaveBeenCalledWith({
      metric: { metric_id: 'views', measurement: undefined, query },
      group_by: 'hour',
      order_direction: 'desc',
    });
  });

  it('insights: rows with meta, worst first by default', async () => {
    const row = {
      filter_column: 'country',
      filter_value: 'US',
      metric: 2000,
      negative_impact_score: 355.6,
      total_views: 4,
      total_watch_time: 1,
      total_playing_time: 1,
    };
    gw.analytics.listMetricInsights.mockReturnValue(metricRows([row], { aggregation: 'view_end' }, 1));
    const res = await gw.request('GET', `/data/v1/metrics/video_startup_time/insights?${TF}&measurement=median`);
    expect(res.body).toEqual({ data: [row], meta: { aggregation: 'view_end' }, total_row_count: 1, timeframe: [1_700_000_000, 1_700_086_400] });
    expect(gw.analytics.listMetricInsights).toHaveBeenCalledWith({
      metric: { metric_id: 'video_startup_time', measurement: 'median', query },
      order_direction: 'desc',
    });
  });

  it('comparison: totals then entries, total_row_count null; the dimension resolved', async () => {
    const entries = [
      { name: 'totals', watch_time: 1, view_count: 1, started_views: 1, ended_views: 1, unique_viewers: 1, total_playing_time: 1 },
      {
        value: 0.5,
        type: 'score',
        name: 'Rebuffer Score',
        metric: 'rebuffer_score',
        items: [{ value: 2, type: 'number', name: 'Rebuffer Count (median)', metric: 'rebuffer_count', measurement: 'median' }],
      },
    ];
    gw.analytics.getMetricComparison.mockReturnValue(reply({ data_json: JSON.stringify(entries) }));
    const res = await gw.request('GET', `/data/v1/metrics/comparison?${TF}&dimension=browser&value=Chrome`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: entries, total_row_count: null, timeframe: [1_700_000_000, 1_700_086_400] });
    expect(gw.analytics.getMetricComparison).toHaveBeenCalledWith({ query, dimension: 'browser', value: 'Chrome' });
  });

  it.each([
    ['/data/v1/metrics/colour/overall', 'METRIC_ID: "colour" is not a metric id'],
    ['/data/v1/metrics/views/overall?measurement=mean', 'measurement'],
    ['/data/v1/metrics/views/breakdown?group_by=colour', 'group_by: colour is not a dimension'],
    ['/data/v1/metrics/views/breakdown', 'group_by'],
    ['/data/v1/metrics/views/breakdown?group_by=browser&order_by=speed', 'order_by'],
    ['/data/v1/metrics/views/timeseries?group_by=week', 'group_by'],
    ['/data/v1/metrics/views/insights?order_direction=up', 'order_direction'],
    ['/data/v1/metrics/comparison?dimension=colour&value=red', 'dimension: colour is not a dimension'],
    ['/data/v1/metrics/comparison?dimension=browser', 'value: required with dimension'],
  ])('GET %s → 400 naming the problem, nothing asked of the service', async (path, message) => {
    const res = await gw.request('GET', path);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_parameters');
    expect(res.body.error.messages.join(' ')).toContain(message);
    for (const method of Object.values(gw.analytics)) expect(method).not.toHaveBeenCalled();
  });

  it("the service's refusal of a measurement is a 400 too", async () => {
    gw.analytics.getMetricOverall.mockReturnValue(grpcError(3, JSON.stringify(['measurement: rebuffer_percentage takes avg, median, 95th, not "sum"'])));
    const res = await gw.request('GET', '/data/v1/metrics/rebuffer_percentage/overall?measurement=sum');
    expect(res.status).toBe(400);
    expect(res.body.error.messages).toEqual(['measurement: rebuffer_percentage takes avg, median, 95th, not "sum"']);
  });

  it('needs data:read', async () => {
    const video = await gw.token(['video:read']);
    expect((await gw.request('GET', '/data/v1/metrics/views/overall', { auth: video })).status).toBe(403);
  });
});
