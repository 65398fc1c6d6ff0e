import { BeaconBatch } from './beacon-values';
import { InMemoryViewRepository } from './testing/in-memory-view-repository';
import { exitBeforeStartView, failedView, playedView, silentView } from './testing/sample-views';
import { UnresolvedPlaybackIds } from './playback-id-resolver';
import { ViewBuilder } from './view-builder';
import { ViewRow } from './view-row';
import { DEFAULT_VIEWS_OPTIONS } from './views.options';

const T0 = 1_767_225_600_000;

function setup(now = T0 + 300_000) {
  const repository = new InMemoryViewRepository();
  const clock = { now };
  const builder = new ViewBuilder(repository, new UnresolvedPlaybackIds(), DEFAULT_VIEWS_OPTIONS, () => clock.now);
  return { repository, builder, clock };
}

async function ingestAll(builder: ViewBuilder, batches: BeaconBatch[]): Promise<void> {
  for (const batch of batches) await builder.ingest(batch);
}

const comparable = (row: ViewRow | undefined) => row && { ...row, updated_at: undefined };

describe('ViewBuilder: a view that played', () => {
  it('derives watch, playing and startup times, rebuffering, seeks, scaling and the weighted average bitrate', async () => {
    const { repository, builder } = setup();
    await ingestAll(builder, playedView());
    const row = repository.latest('view-played') as ViewRow;
    expect(row).toMatchObject({
      view_id: 'view-played',
      view_start: '2026-01-01 00:00:01.050',
      view_end: '2026-01-01 00:03:35.050',
      watch_time: 212_800,
      view_playing_time: 210_000,
      time_to_first_frame: 500,
      player_startup_time: 120,
      page_load_time: 800,
      aggregate_startup_time: 1420,
      buffering_count: 1,
      buffering_duration: 2000,
      view_seek_count: 1,
      view_seek_duration: 300,
      seek_latency: 300,
      view_max_upscale_percentage: 1,
      rendition_change_count: 1,
      rendition_upshift_count: 1,
      rendition_downshift_count: 0,
      video_source_bitrate: 2_000_000,
      video_source_bitrate_initial: 1_000_000,
      video_source_width_initial: 640,
      exit_before_video_start: false,
      playback_failure: false,
      video_startup_failure: false,
      view_dropped: false,
      watched: true,
      event_count: 13,
      version: 27,
      video_title: 'Big Buck Bunny',
      viewer_application_name: 'Chrome',
      country_code: 'DE',
      country_name: 'Germany',
      asn: null,
      playback_id: 'pbid123',
      player_source_host_name: 'localhost',
      player_source_type: 'application/x-mpegURL',
      video_stream_type: 'on-demand',
      player_autoplay: false,
      player_error_code: null,
      error_type_id: null,
    });
    expect(row.weighted_average_bitrate).toBeCloseTo((60_000 * 1e6 + 150_000 * 2e6) / 210_000, 3);
    expect(row.buffering_rate).toBeCloseTo(1 / (212_800 / 60_000), 6);
    expect(row.rebuffer_percentage).toBeCloseTo(2000 / 212_800, 6);
    expect(row.upscale_percentage).toBeCloseTo(60_000 / 210_000, 6);
    expect(row.playback_score).toBe(1);
    expect(row.startup_score).toBeCloseTo(8 / 8.5, 6);
    expect(row.viewer_experience_score).toBeGreaterThan(0.7);
    expect(row.viewer_experience_score).toBeLessThan(1);
  });

  it('carries values forward: a field sent once stays on the view while later beacons omit it', async () => {
    const { repository, builder } = setup();
    const [first, second] = playedView();
    expect(second.events.every((e) => e.video_title === undefined)).toBe(true);
    await ingestAll(builder, [first, second]);
    expect(repository.latest('view-played')).toMatchObject({ video_title: 'Big Buck Bunny', view_end: null, time_to_first_frame: 500, watch_time: 92_500 });
  });

  it('keeps every event for the timeline, once', async () => {
    const { repository, builder } = setup();
    await ingestAll(builder, playedView());
    expect(repository.events.map((e) => e.name)).toEqual([
      'playerready',
      'viewstart',
      'renditionchange',
      'playing',
      'hb',
      'renditionchange',
      'rebufferstart',
      'rebufferend',
      'seeking',
      'seeked',
      'playing',
      'pause',
      'viewend',
    ]);
  });
});

describe('ViewBuilder: idempotency and order', () => {
  it('a redelivered batch changes nothing', async () => {
    const { repository, builder } = setup();
    const batches = playedView();
    await ingestAll(builder, batches.slice(0, 2));
    const before = { events: repository.events.length, rows: repository.rows.length };
    const again = await builder.ingest(batches[1]);
    expect(again).toEqual({ applied: 0, skipped: 4, rowWritten: false });
    expect({ events: repository.events.length, rows: repository.rows.length }).toEqual(before);
    await ingestAll(builder, [...batches.slice(2), ...batches]);
    const once = setup();
    await ingestAll(once.builder, playedView());
    expect(comparable(repository.latest('view-played'))).toEqual(comparable(once.repository.latest('view-played')));
  });

  it('out-of-order batches give the same view as in order', async () => {
    const inOrder = setup();
    await ingestAll(inOrder.builder, playedView());
    const [b1, b2, b3, b4] = playedView();
    const shuffled = setup();
    await ingestAll(shuffled.builder, [b3, b1, b4, b2]);
    expect(comparable(shuffled.repository.latest('view-played'))).toEqual(comparable(inOrder.repository.latest('view-played')));
  });

  it('a restart folds the view again from storage and loses no carried state', async () => {
    const { repository, builder } = setup();
    const batches = playedView();
    await ingestAll(builder, batches.slice(0, 2));
    const restarted = new ViewBuilder(repository, new UnresolvedPlaybackIds(), DEFAULT_VIEWS_OPTIONS, () => T0 + 300_000);
    await ingestAll(restarted, batches.slice(2));
    const once = setup();
    await ingestAll(once.builder, playedView());
    expect(comparable(repository.latest('view-played'))).toEqual(comparable(once.repository.latest('view-played')));
  });

  it('a failed write is retried from storage without double counting', async () => {
    const { repository, builder } = setup();
    const batches = playedView();
    await builder.ingest(batches[0]);
    repository.failNextSaveViews = true;
    await expect(builder.ingest(batches[1])).rejects.toThrow('store unavailable');
    await builder.ingest(batches[1]);
    await ingestAll(builder, batches.slice(2));
    const once = setup();
    await ingestAll(once.builder, playedView());
    expect(comparable(repository.latest('view-played'))).toEqual(comparable(once.repository.latest('view-played')));
  });

  it('skips events without a usable sequence number or of another view', async () => {
    const { repository, builder } = setup();
    const [first] = playedView();
    const odd: BeaconBatch = {
      ...first,
      events: [...first.events, { event: 'hb' }, { event: 'hb', view_sequence_number: 'x' }, { event: 'hb', view_sequence_number: 99, view_id: 'other' }],
    };
    expect(await builder.ingest(odd)).toEqual({ applied: 4, skipped: 3, rowWritten: true });
    expect(repository.events).toHaveLength(4);
  });
});

describe('ViewBuilder: outcomes', () => {
  it('exit before video start: no first frame, no error; success 0.5 and no other score', async () => {
    const { repository, builder } = setup();
    await ingestAll(builder, exitBeforeStartView());
    expect(repository.latest('view-ebvs')).toMatchObject({
      exit_before_video_start: true,
      playback_failure: false,
      watched: false,
      time_to_first_frame: null,
      buffering_count: null,
      playback_score: 0.5,
      startup_score: null,
      rebuffering_score: null,
      quality_score: null,
      viewer_experience_score: 0.5,
    });
  });

  it('exit before video start under 1 s gets no playback score', async () => {
    const { repository, builder } = setup();
    await ingestAll(builder, exitBeforeStartView('quick', 600));
    expect(repository.latest('quick')).toMatchObject({ exit_before_video_start: true, playback_score: null, viewer_experience_score: null });
  });

  it('a fatal error before the first frame is a playback and startup failure, not an exit before start', async () => {
    const { repository, builder } = setup();
    await ingestAll(builder, failedView());
    expect(repository.latest('view-failed')).toMatchObject({
      playback_failure: true,
      video_startup_failure: true,
      exit_before_video_start: false,
      player_error_code: '2',
      player_error_message: 'networkError: manifestLoadError',
      player_error_severity: 'fatal',
      playback_score: 0,
      viewer_experience_score: 0,
    });
    const row = repository.latest('view-failed') as ViewRow;
    expect(row.error_type_id).toEqual(row.playback_failure_error_type_id);
    expect(row.error_type_id).toBeGreaterThan(0);
  });

  it('a warning is shown but is no failure; a business exception is no failure either', async () => {
    const warned = setup();
    await ingestAll(warned.builder, failedView('warned', { player_error_severity: 'warning' }));
    expect(warned.repository.latest('warned')).toMatchObject({
      playback_failure: false,
      player_error_severity: 'warning',
      player_error_code: '2',
      exit_before_video_start: true,
    });
    const business = setup();
    await ingestAll(business.builder, failedView('business', { player_error_business_exception: true }));
    const row = business.repository.latest('business') as ViewRow;
    expect(row).toMatchObject({
      playback_failure: false,
      video_startup_failure: false,
      playback_business_exception: true,
      video_startup_business_exception: true,
      exit_before_video_start: false,
    });
    expect(row.video_startup_business_exception_error_type_id).toBe(row.error_type_id);
  });

  it('a silent view is closed by the sweeper as dropped, also after a restart', async () => {
    const { repository, builder, clock } = setup(T0 + 30_000);
    await ingestAll(builder, silentView());
    expect(await builder.sweep()).toBe(0);
    clock.now = T0 + 20_900 + DEFAULT_VIEWS_OPTIONS.silenceMs;
    const restarted = new ViewBuilder(repository, new UnresolvedPlaybackIds(), DEFAULT_VIEWS_OPTIONS, () => clock.now);
    expect(await restarted.sweep()).toBe(1);
    expect(repository.latest('view-silent')).toMatchObject({
      view_dropped: true,
      view_end: '2026-01-01 00:00:20.850',
      watch_time: 20_800,
      exit_before_video_start: false,
    });
    expect(await restarted.sweep()).toBe(0);
  });

  it('a late viewend after the sweep makes the view a clean exit', async () => {
    const { repository, builder, clock } = setup(T0 + 30_000);
    const batches = silentView();
    await ingestAll(builder, batches);
    clock.now += DEFAULT_VIEWS_OPTIONS.silenceMs;
    await builder.sweep();
    const viewend = { view_id: 'view-silent', event: 'viewend', view_sequence_number: 4, viewer_time: T0 + 21_000 };
    await builder.ingest({ view_id: 'view-silent', received_at: clock.now, events: [viewend] });
    expect(repository.latest('view-silent')).toMatchObject({ view_dropped: false, event_count: 3 + 1 });
  });

  it('a player that never started has events but no row', async () => {
    const { repository, builder } = setup();
    await builder.ingest({ view_id: 'idle', received_at: T0, events: [{ view_id: 'idle', event: 'playerready', view_sequence_number: 1, viewer_time: T0 }] });
    expect(repository.rows).toHaveLength(0);
    expect(repository.events).toHaveLength(1);
  });
});
