import { ADVANCED_FILTERS, BASIC_FILTERS } from '@platform/api-rules';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

const rows = (data: unknown, total?: number) => reply({ data_json: JSON.stringify(data), ...(total === undefined ? {} : { total_row_count: total }) });

describe('Data API routes (spec 001)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('lists views with the resolved query and the {data, total_row_count, timeframe} envelope', async () => {
    const view = { id: 'v1', view_start: '2026-11-27T10:00:00.000Z', view_end: '2026-11-27T10:05:00.000Z', total_row_count: 1 };
    gw.analytics.listVideoViews.mockReturnValue(rows([view], 1));
    const res = await gw.request(
      'GET',
      '/data/v1/video-views?timeframe%5B%5D=1700000000&timeframe%5B%5D=1700086400&filters%5B%5D=!country:US&filters%5B%5D=browser:Chrome&metric_filters%5B%5D=video_startup_time%3E%3D1000&error_id=any&viewer_id=u1&limit=10&page=2&order_direction=asc',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [view], total_row_count: 1, timeframe: [1_700_000_000, 1_700_086_400] });
    expect(gw.analytics.listVideoViews).toHaveBeenCalledWith({
      query: {
        timeframe: { start: 1_700_000_000, end: 1_700_086_400 },
        filters: [
          { dimension: 'country', value: 'US', negate: true },
          { dimension: 'browser', value: 'Chrome', negate: false },
        ],
        metric_filters: [{ metric: 'video_startup_time', operator: '>=', value: 1000 }],
      },
      limit: 10,
      page: 2,
      order_direction: 'asc',
      viewer_id: 'u1',
      error_id: 'any',
    });
  });

  it('defaults: the last 24 hours, 25 a page, newest first', async () => {
    gw.analytics.listVideoViews.mockReturnValue(rows([], 0));
    const before = Math.floor(Date.now() / 1000);
    const res = await gw.request('GET', '/data/v1/video-views?timeframe[]=24:hours');
    expect(res.status).toBe(200);
    const [start, end] = res.body.timeframe as number[];
    expect(end - start).toBe(86_400);
    expect(end).toBeGreaterThanOrEqual(before);
    expect(gw.analytics.listVideoViews.mock.calls[0][0]).toMatchObject({ limit: 25, page: 1, order_direction: 'desc' });
  });

  it.each([
    ['/data/v1/video-views?timeframe[]=soon', 'timeframe[]: "soon" is not a duration'],
    ['/data/v1/video-views?filters[]=colour:red', 'filters[][0]: "colour" is not a dimension'],
    ['/data/v1/video-views?metric_filters[]=views%3E1', 'metric_filters[][0]: views cannot be used in metric_filters'],
    ['/data/v1/video-views?error_id=some', 'error_id: must be an error_type_id (an integer) or any'],
    ['/data/v1/errors?timeframe[]=1700000001&timeframe[]=1700000000', 'timeframe[]: the start must be before the end'],
    ['/data/v1/dimensions/colour', 'colour is not a dimension'],
  ])('GET %s → 400 naming the problem, nothing asked of the service', async (path, message) => {
    const res = await gw.request('GET', path);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_parameters');
    expect(res.body.error.messages.join(' ')).toContain(message);
    expect(gw.analytics.listVideoViews).not.toHaveBeenCalled();
    expect(gw.analytics.listErrors).not.toHaveBeenCalled();
    expect(gw.analytics.listDimensionValues).not.toHaveBeenCalled();
  });

  it('a view: data is the object, total_row_count null, timeframe its start and end', async () => {
    const view = { id: 'v1', view_id: 'v1', view_start: '2026-11-27T10:00:00.000Z', view_end: '2026-11-27T10:05:00.000Z', events: [] };
    gw.analytics.getVideoView.mockReturnValue(rows(view));
    const res = await gw.request('GET', '/data/v1/video-views/v1');
    expect(res.body).toEqual({ data: view, total_row_count: null, timeframe: [Date.parse(view.view_start) / 1000, Date.parse(view.view_end) / 1000] });
    gw.analytics.getVideoView.mockReturnValue(grpcError(5, 'video view not found'));
    expect((await gw.request('GET', '/data/v1/video-views/nope')).status).toBe(404);
  });

  it('filters and dimensions list the names of rule 3', async () => {
    for (const path of ['/data/v1/filters', '/data/v1/dimensions']) {
      const res = await gw.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ basic: [...BASIC_FILTERS], advanced: [...ADVANCED_FILTERS] });
      expect(res.body.total_row_count).toBeNull();
    }
  });

  it('values of a filter or dimension, aliases resolved', async () => {
    gw.analytics.listDimensionValues.mockReturnValue(rows([{ value: 'Chrome', total_count: 3 }], 1));
    const res = await gw.request('GET', '/data/v1/filters/browser?limit=5');
    expect(res.body.data).toEqual([{ value: 'Chrome', total_count: 3 }]);
    expect(gw.analytics.listDimensionValues.mock.calls[0][0]).toMatchObject({ dimension: 'browser', limit: 5, page: 1 });
    gw.analytics.listDimensionValues.mockReturnValue(rows([], 0));
    await gw.request('GET', '/data/v1/dimensions/player_mux_plugin_name');
    expect(gw.analytics.listDimensionValues.mock.calls[1][0]).toMatchObject({ dimension: 'player_svc_plugin_name' });
  });

  it('exports: days with their files, and the legacy list of URLs', async () => {
    const days = [{ export_date: '2026-11-26', files: [{ version: 2, type: 'csv', path: 'http://x/views.csv.gz?sig' }] }];
    gw.analytics.listViewExports.mockReturnValue(rows(days));
    const views = await gw.request('GET', '/data/v1/exports/views');
    expect(views.body).toEqual({ data: days, total_row_count: 1, timeframe: [Date.UTC(2026, 10, 26) / 1000, Date.UTC(2026, 10, 27) / 1000] });
    const legacy = await gw.request('GET', '/data/v1/exports');
    expect(legacy.body.data).toEqual(['http://x/views.csv.gz?sig']);
  });

  it('needs data:read', async () => {
    const video = await gw.token(['video:read']);
    expect((await gw.request('GET', '/data/v1/video-views', { auth: video })).status).toBe(403);
  });
});
