import { MONITORING_HISTOGRAM_BUCKETS } from '@platform/api-rules';
import { reply, TestGateway } from '../testing/test-gateway';

const rows = (data: unknown) => reply({ data_json: JSON.stringify(data) });
const now = () => Math.floor(Date.now() / 1000);

describe('Data API monitoring routes (Mux real-time API, /monitoring and /realtime)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it.each(['monitoring', 'realtime'])('/data/v1/%s/dimensions and /metrics: the fixed lists, timeframe the last day', async (prefix) => {
    const dimensions = await gw.request('GET', `/data/v1/${prefix}/dimensions`);
    expect(dimensions.status).toBe(200);
    expect(dimensions.body.data).toContainEqual({ name: 'region', display_name: 'Region / State' });
    expect(dimensions.body.total_row_count).toBeNull();
    expect(dimensions.body.timeframe[1] - dimensions.body.timeframe[0]).toBe(86_400);
    const metrics = await gw.request('GET', `/data/v1/${prefix}/metrics`);
    expect(metrics.body.data.map((m: { name: string }) => m.name)).toEqual([
      'current-concurrent-viewers',
      'current-rebuffering-percentage',
      'exits-before-video-start',
      'playback-failure-percentage',
      'current-average-bitrate',
      'video-startup-failure-percentage',
      'video-startup-time',
    ]);
  });

  it('breakdown: the instant given (default now) as the timeframe; filters parsed; defaults negative_impact desc', async () => {
    const data = [{ value: 'US', metric_value: 0.5, negative_impact: 0.125, concurrent_viewers: 1, starting_up_viewers: 1 }];
    gw.analytics.getMonitoringBreakdown.mockReturnValue(rows(data));
    const res = await gw.request(
      'GET',
      '/data/v1/realtime/metrics/playback-failure-percentage/breakdown?dimension=country&timestamp=1700000000&filters[]=!cdn:fastly',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data, total_row_count: null, timeframe: [1_700_000_000, 1_700_000_000] });
    expect(gw.analytics.getMonitoringBreakdown).toHaveBeenCalledWith({
      metric_id: 'playback-failure-percentage',
      dimension: 'country',
      filters: [{ dimension: 'cdn', value: 'fastly', negate: true }],
      order_by: 'negative_impact',
      order_direction: 'desc',
      timeframe: { start: 1_700_000_000, end: 1_700_000_000 },
      limit: 0,
    });
  });

  it('timeseries: from timestamp (default 30 minutes back) to now', async () => {
    gw.analytics.listMonitoringTimeseries.mockReturnValue(rows([]));
    const res = await gw.request('GET', '/data/v1/monitoring/metrics/current-concurrent-viewers/timeseries');
    expect(res.status).toBe(200);
    const [start, end] = res.body.timeframe as number[];
    expect(end - start).toBe(1800);
    expect(Math.abs(end - now())).toBeLessThanOrEqual(2);
  });

  it('breakdown timeseries: 5 minutes ending 15 s ago by default, 10 values per instant', async () => {
    gw.analytics.listMonitoringBreakdownTimeseries.mockReturnValue(rows([]));
    const res = await gw.request('GET', '/data/v1/monitoring/metrics/current-concurrent-viewers/breakdown-timeseries?dimension=cdn');
    expect(res.status).toBe(200);
    const [start, end] = res.body.timeframe as number[];
    expect(end - start).toBe(300);
    expect(Math.abs(end - (now() - 15))).toBeLessThanOrEqual(2);
    expect(gw.analytics.listMonitoringBreakdownTimeseries).toHaveBeenCalledWith(expect.objectContaining({ limit: 10, dimension: 'cdn' }));
  });

  it('histogram timeseries: the buckets in meta', async () => {
    gw.analytics.listMonitoringHistogram.mockReturnValue(rows([]));
    const res = await gw.request('GET', '/data/v1/realtime/metrics/video-startup-time/histogram-timeseries');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ bucket_unit: 'milliseconds', buckets: MONITORING_HISTOGRAM_BUCKETS });
  });

  it.each([
    ['/data/v1/monitoring/metrics/views/breakdown?dimension=country', 'is not a monitoring metric'],
    ['/data/v1/monitoring/metrics/video-startup-time/timeseries', 'has histogram-timeseries'],
    ['/data/v1/monitoring/metrics/current-concurrent-viewers/breakdown', 'dimension'],
    ['/data/v1/monitoring/metrics/current-concurrent-viewers/breakdown?dimension=browser', 'browser is not a monitoring dimension'],
    ['/data/v1/monitoring/metrics/current-concurrent-viewers/breakdown?dimension=cdn&filters[]=colour:red', 'filters[]'],
    ['/data/v1/monitoring/metrics/current-concurrent-viewers/timeseries?timestamp=1', 'at most 6 hours back'],
    ['/data/v1/monitoring/metrics/current-concurrent-viewers/timeseries?timestamp=soon', 'timestamp'],
    ['/data/v1/monitoring/metrics/current-concurrent-viewers/breakdown-timeseries?dimension=cdn&timeframe[]=7:days', 'at most 60 minutes'],
    ['/data/v1/monitoring/metrics/current-concurrent-viewers/histogram-timeseries', 'must be video-startup-time'],
  ])('GET %s → 400 naming the problem, nothing asked of the service', async (path, message) => {
    const res = await gw.request('GET', path);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_parameters');
    expect(res.body.error.messages.join(' ')).toContain(message);
    for (const method of Object.values(gw.analytics)) expect(method).not.toHaveBeenCalled();
  });

  it('needs data:read', async () => {
    const video = await gw.token(['video:read']);
    expect((await gw.request('GET', '/data/v1/realtime/metrics', { auth: video })).status).toBe(403);
  });
});
