import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { tamperedAt } from '@platform/testing';
import { settledAsset, streamUrl } from './support/assets';
import { api, sdk } from './support/context';
import { eventually } from './support/encoder';
import { launchChromium } from './support/hls-player';
import { FileServer, makeClip, serveFiles } from './support/media';
import { EmbedLevel, embedPlayer, serveMuxEmbedPage } from './support/mux-embed-page';

jest.setTimeout(240_000);

const collectorDomain = () => `localhost:${new URL(process.env.E2E_COLLECTOR_URL ?? '').port}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Mux Data end to end: hls.js + mux-embed (from npm) in Chromium play one of our assets with their
 * beacons pointed at the platform's collector; the official SDK then reads the views back from the
 * Data API. The played view has a seek, a forced rendition switch and a stall made by throttling the
 * network; a second view plays a playback id that does not exist (an error view).
 */
describe('Mux Data: mux-embed beacons → views → Data API (official SDK)', () => {
  const mux = sdk();
  const run = `analytics-e2e-${Date.now()}`;
  let dir: string;
  let files: FileServer;
  let page: Awaited<ReturnType<typeof serveMuxEmbedPage>>;
  let browser: Browser;
  let assetId: string;
  let playbackId: string;
  let levels: EmbedLevel[] = [];
  const played: { viewId?: string; watchedMs: number; pausedMs: number; playStartedAt: number; endedAt: number } = {
    watchedMs: 0,
    pausedMs: 0,
    playStartedAt: 0,
    endedAt: 0,
  };

  async function newPlayerPage(): Promise<{ context: BrowserContext; tab: Page; cdp: CDPSession }> {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(page.url);
    return { context, tab, cdp: await context.newCDPSession(tab) };
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-analytics-'));
    await makeClip(dir, 'clip', { seconds: 16, width: 640, height: 360, fps: 30 });
    files = await serveFiles(dir);
    const asset = await mux.video.assets.create({ inputs: [{ url: files.url('clip.mp4') }], playback_policies: ['public'], passthrough: run });
    assetId = asset.id;
    playbackId = asset.playback_ids![0].id;
    [page, browser] = await Promise.all([serveMuxEmbedPage(), launchChromium()]);
    expect((await settledAsset(mux, assetId)).status).toBe('ready');
    // the ladder: at least two renditions to switch between
    await eventually(
      async () => (await fetch(streamUrl(`${playbackId}.m3u8`))).text(),
      (text) => (text.match(/RESOLUTION=/g) ?? []).length > 1,
      90_000,
    );
  });

  afterAll(async () => {
    await browser?.close();
    await page?.close();
    await files?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('plays an asset with a seek, a rendition switch and a stall; the SDK reads the view back', async () => {
    const { context, tab, cdp } = await newPlayerPage();
    const player = embedPlayer(tab);
    const title = `${run} played`;
    levels = await player.start(streamUrl(`${playbackId}.m3u8`), collectorDomain(), { video_title: title, viewer_user_id: run, player_name: 'e2e page' });
    expect(levels.length).toBeGreaterThan(1);
    played.playStartedAt = Date.now();
    await player.play();
    await eventually(
      () => player.state(),
      (s) => s.time > 2,
      20_000,
    );

    // the top rendition, over a network slowed to a trickle: hls.js flushes, waits for data, the player stalls
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 200, downloadThroughput: 8_000, uploadThroughput: 1_000_000 });
    await player.level(levels.length - 1);
    await sleep(4_000);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const switched = await eventually(
      () => player.state(),
      (s) => s.height === levels[levels.length - 1].height && !s.paused,
      30_000,
    );
    expect(switched.height).toBe(levels[levels.length - 1].height);

    await player.seek(9);
    await sleep(1_500);
    await player.pause();
    const pausedAt = Date.now();
    await sleep(2_000);
    await player.play();
    played.pausedMs = Date.now() - pausedAt;
    await eventually(
      () => player.state(),
      (s) => s.ended,
      30_000,
    );
    played.endedAt = Date.now();
    await player.end();
    await context.close();

    const list = await eventually(
      async () => (await mux.data.videoViews.list({ timeframe: ['1:hours'], viewer_id: run, filters: [`video_title:${title}`] })).data,
      (rows) => rows.length === 1,
      60_000,
    );
    expect(list).toHaveLength(1);
    const item = list[0];
    played.viewId = item.id;
    expect(item).toMatchObject({
      video_title: title,
      viewer_application_name: expect.stringMatching(/^Chrome/),
      viewer_os_family: 'Linux',
      playback_failure: false,
      player_error_code: null,
      total_row_count: 1,
    });
    expect(Date.parse(item.view_end)).toBeGreaterThanOrEqual(Date.parse(item.view_start));

    const view = (await mux.data.videoViews.retrieve(item.id)).data;
    // watch time: play to end, pauses excluded, startup, stall and seek included (±2.5 s for beacon and wall-clock granularity)
    const expectedWatch = played.endedAt - played.playStartedAt - played.pausedMs;
    expect(Math.abs((view.watch_time ?? 0) - expectedWatch)).toBeLessThan(2_500);
    expect(view.time_to_first_frame).toBeGreaterThan(0);
    expect(view.time_to_first_frame).toBeLessThan(10_000);
    expect(view.buffering_count).toBeGreaterThanOrEqual(1);
    expect(view.buffering_duration).toBeGreaterThan(500);
    expect(view.view_seek_count).toBeGreaterThanOrEqual(1);
    expect(view.rendition_change_count).toBeGreaterThanOrEqual(1);
    expect(view.video_source_height).toBe(levels[levels.length - 1].height);
    const bitrates = levels.map((l) => l.bitrate);
    expect(view.weighted_average_bitrate).toBeGreaterThanOrEqual(Math.min(...bitrates) - 1);
    expect(view.weighted_average_bitrate).toBeLessThanOrEqual(Math.max(...bitrates) + 1);
    expect(view).toMatchObject({ playback_id: playbackId, asset_id: assetId, exit_before_video_start: false, playback_failure: false, view_dropped: false });
    const names = view.events.map((e) => e.name);
    for (const name of ['viewstart', 'playing', 'renditionchange', 'seeking', 'seeked', 'pause', 'ended', 'viewend']) expect(names).toContain(name);
  });

  it('a playback id that does not exist makes an error view, listed among the errors', async () => {
    const { context, tab } = await newPlayerPage();
    const player = embedPlayer(tab);
    const title = `${run} broken`;
    await player.start(streamUrl('NoSuchPlaybackId00000000000000000000.m3u8'), collectorDomain(), { video_title: title, viewer_user_id: run });
    await player.requestPlay();
    await eventually(
      () => player.state(),
      (s) => s.errors.length > 0,
      20_000,
    );
    await sleep(500);
    await player.end();
    await context.close();

    const failed = await eventually(
      async () => (await mux.data.videoViews.list({ timeframe: ['1:hours'], viewer_id: run, error_id: 'any' as unknown as number })).data,
      (rows) => rows.length === 1,
      60_000,
    );
    expect(failed.map((v) => v.video_title)).toEqual([title]);
    expect(failed[0].playback_failure).toBe(true);
    expect(failed[0].player_error_code).not.toBeNull();
    const errors = (await mux.data.errors.list({ timeframe: ['1:hours'], filters: [`viewer_user_id:${run}`] })).data;
    expect(errors).toEqual([
      expect.objectContaining({ id: failed[0].error_type_id, count: 1, percentage: 0.5, player_error_code: failed[0].player_error_code }),
    ]);
    const byError = await mux.data.videoViews.list({ timeframe: ['1:hours'], error_id: failed[0].error_type_id!, viewer_id: run });
    expect(byError.data.map((v) => v.id)).toEqual([failed[0].id]);
  });

  it('filters and dimensions: names, values with counts, negation', async () => {
    const names = await mux.data.dimensions.list();
    expect(names.data.basic).toContain('browser');
    expect(names.data.advanced).toContain('viewer_user_id');
    const titles = [];
    for await (const value of mux.data.dimensions.listValues('video_title', { timeframe: ['1:hours'], filters: [`viewer_user_id:${run}`] })) titles.push(value);
    expect(titles.sort((a, b) => String(a.value).localeCompare(String(b.value)))).toEqual([
      { value: `${run} broken`, total_count: 1 },
      { value: `${run} played`, total_count: 1 },
    ]);
    const notBroken = await mux.data.videoViews.list({ timeframe: ['1:hours'], viewer_id: run, filters: [`!video_title:${run} broken`] });
    expect(notBroken.data.map((v) => v.id)).toEqual([played.viewId]);
    await expect(mux.data.videoViews.list({ filters: ['colour:red'] })).rejects.toMatchObject({ status: 400 });
  });

  it('metrics over these views: overall, breakdown and timeseries through the SDK', async () => {
    const filters = [`viewer_user_id:${run}`];
    const views = await mux.data.metrics.getOverallValues('views', { timeframe: ['1:hours'], filters });
    expect(views.data).toMatchObject({ value: 2, total_views: 2 });
    expect(views.meta).toMatchObject({ aggregation: 'view_start' });
    const played = (await mux.data.videoViews.list({ timeframe: ['1:hours'], viewer_id: run, filters: [`video_title:${run} played`] })).data[0];
    const detail = (await mux.data.videoViews.retrieve(played.id)).data;
    const startup = await mux.data.metrics.getOverallValues('video_startup_time', { timeframe: ['1:hours'], filters });
    // one view reached its first frame: the median is its own startup time
    expect(startup.data).toMatchObject({ value: detail.time_to_first_frame, total_views: 1 });
    expect(startup.meta).toMatchObject({ aggregation: 'view_end' });
    const byBrowser = [];
    for await (const row of mux.data.metrics.listBreakdownValues('views', { timeframe: ['1:hours'], filters, group_by: 'browser' })) byBrowser.push(row);
    expect(byBrowser).toEqual([expect.objectContaining({ field: played.viewer_application_name, views: 2, value: 2 })]);
    const series = await mux.data.metrics.getTimeseries('views', { timeframe: ['1:hours'], filters, group_by: 'ten_minutes' });
    expect(series.data.reduce((sum, point) => sum + Number(point[2] ?? 0), 0)).toBe(2);
  });

  it('insights and comparison: the SDK and the raw envelopes of spec 001, values computed by hand', async () => {
    const filters = [`viewer_user_id:${run}`];
    const views = (await mux.data.videoViews.list({ timeframe: ['1:hours'], viewer_id: run })).data;
    const broken = (await mux.data.videoViews.retrieve(views.find((v) => v.video_title === `${run} broken`)!.id)).data;
    const ok = (await mux.data.videoViews.retrieve(played.viewId!)).data;

    // one failed view of two: failure 0.5 overall; the broken title is 1 over half the views, impact (1 − 0.5) × 1/2
    const insights = await mux.data.metrics.getInsights('playback_failure_percentage', { timeframe: ['1:hours'], filters });
    const scores = insights.data.map((i) => i.negative_impact_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(insights.data).toContainEqual({
      filter_column: 'video_title',
      filter_value: `${run} broken`,
      metric: 1,
      negative_impact_score: 0.25,
      total_views: 1,
      total_watch_time: Number(broken.watch_time ?? 0), // the view detail prints some numbers as decimal strings, as Mux does
      total_playing_time: Number(broken.view_playing_time ?? 0),
    });
    expect(insights.data.find((i) => i.filter_value === `${run} played`)).toMatchObject({ metric: 0, negative_impact_score: -0.25, total_views: 1 });
    expect(insights.data[0].negative_impact_score).toBe(0.25);

    const raw = await api('GET', `/data/v1/metrics/playback_failure_percentage/insights?timeframe[]=1:hours&filters[]=${encodeURIComponent(filters[0])}`);
    expect(raw.status).toBe(200);
    expect(Object.keys(raw.body).sort()).toEqual(['data', 'meta', 'timeframe', 'total_row_count']);
    expect(raw.body).toMatchObject({ meta: { aggregation: 'view_end' }, total_row_count: raw.body.data.length });
    expect(raw.body.timeframe).toEqual([expect.any(Number), expect.any(Number)]);
    expect(raw.body.timeframe[1] - raw.body.timeframe[0]).toBe(3_600);

    const compared = await mux.data.metrics.list({ timeframe: ['1:hours'], filters, dimension: 'video_title', value: `${run} played` });
    const [totals, ...groups] = compared.data as unknown as Array<Record<string, any>>;
    expect(totals).toEqual({
      name: 'totals',
      watch_time: Number(ok.watch_time),
      view_count: 1,
      started_views: 1,
      ended_views: 1,
      unique_viewers: 1,
      total_playing_time: Number(ok.view_playing_time),
    });
    expect(groups.map((g) => g.name)).toEqual([
      'Views',
      'Overall Score',
      'Playback Failure Score',
      'Startup Time Score',
      'Rebuffer Score',
      'Video Quality Score',
    ]);
    expect(groups[0]).toEqual({ value: 1, type: 'number', name: 'Views', metric: 'views' });
    const item = (group: string, name: string) => groups.find((g) => g.name === group)!.items.find((i: { name: string }) => i.name === name);
    expect(item('Playback Failure Score', 'Playback Failure Percentage')).toEqual({
      value: 0,
      type: 'percentage',
      name: 'Playback Failure Percentage',
      metric: 'playback_failure_percentage',
    });
    // one view: its startup time is the median and the 95th percentile
    expect(item('Startup Time Score', 'Video Startup Time (median)')).toMatchObject({
      value: Number(ok.time_to_first_frame),
      measurement: 'median',
      type: 'milliseconds',
    });
    expect(item('Startup Time Score', 'Video Startup Time (95th %)')).toMatchObject({ value: Number(ok.time_to_first_frame), measurement: '95th' });
    expect(item('Rebuffer Score', 'Rebuffer Count (median)')).toMatchObject({ value: Number(ok.buffering_count) });

    const rawComparison = await api(
      'GET',
      `/data/v1/metrics/comparison?timeframe[]=1:hours&dimension=video_title&value=${encodeURIComponent(`${run} broken`)}`,
    );
    expect(rawComparison.status).toBe(200);
    expect(Object.keys(rawComparison.body).sort()).toEqual(['data', 'timeframe', 'total_row_count']);
    expect(rawComparison.body.data[0]).toMatchObject({ name: 'totals', view_count: 1, started_views: 1, watch_time: Number(broken.watch_time ?? 0) });
    const failure = rawComparison.body.data.find((g: { name: string }) => g.name === 'Playback Failure Score');
    expect(failure.items[0]).toMatchObject({ name: 'Playback Failure Percentage', value: 1 });
    expect((await api('GET', '/data/v1/metrics/comparison?dimension=colour&value=red')).status).toBe(400);
    expect((await api('GET', '/data/v1/metrics/views/insights?measurement=95th')).status).toBe(400);
  });

  it("exports: today's views in a gzipped CSV behind an expiring URL", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const csv = await eventually(
      async () => {
        const day = (await mux.data.exports.listVideoViews()).data.find((d) => d.export_date === today);
        if (!day) return '';
        expect(day.files).toEqual([{ version: 1, type: 'csv', path: expect.stringMatching(/\/exports\/views\/.+\.csv\.gz\?expires=\d+&signature=/) }]);
        const res = await fetch(day.files[0].path);
        expect(res.status).toBe(200);
        return gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
      },
      (text) => text.includes(played.viewId ?? 'not yet'),
      30_000,
    );
    const [header, ...rows] = csv.trim().split('\r\n');
    const columns = header.split(',');
    expect(columns).toEqual(expect.arrayContaining(['view_id', 'view_start', 'view_end', 'watch_time', 'video_title']));
    const row = rows.find((r) => r.startsWith(`${played.viewId},`) || r.includes(`,${played.viewId},`));
    expect(row).toBeDefined();
    // its signature with one character changed
    const tampered = (await mux.data.exports.listVideoViews()).data[0].files[0].path.replace(
      /signature=([^&]+)/,
      (_, s: string) => `signature=${tamperedAt(s, 0)}`,
    );
    expect((await fetch(tampered)).status).toBe(403);
  });
});
