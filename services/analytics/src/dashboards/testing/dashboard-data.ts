/**
 * A generated data set with known answers for the dashboard tests. Closed views sit in
 * [RANGE_FROM, RANGE_TO); live views are placed relative to `now` (the live panels read now64()).
 */
export const RANGE_FROM = new Date('2026-11-20T00:00:00Z');
export const RANGE_TO = new Date('2026-11-21T00:00:00Z');

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const BROWSERS = ['Chrome', 'Firefox', 'Safari', 'Edge'];
const OSES = ['Windows', 'macOS', 'Linux', 'Android'];
const COUNTRIES = ['France', 'Germany', 'Japan', 'Brazil'];

function view(id: string, start: number, end: number | null, fields: Record<string, unknown>): Record<string, unknown> {
  const last = end ?? start;
  return {
    view_id: id,
    view_start: iso(start),
    view_end: end === null ? null : iso(end),
    last_beacon_at: iso(last),
    inserted_at: iso(start),
    updated_at: iso(last),
    version: end === null ? 10 : 11,
    event_count: 5,
    video_stream_type: 'on-demand',
    player_name: 'hls.js',
    cdn: 'self',
    ...fields,
  };
}

/**
 * 40 played on-demand views (i = 0..39), one every 30 min from 00:01: environment env-a when i is
 * even, asset-(i mod 4), viewer user-(i mod 10), playing time (1 + i mod 5) min, startup
 * 500 + 100·(i mod 10) ms, watch time 10 min, 1 s of rebuffering when i is even, experience score 0.8.
 * 4 failed views (env-b, asset-9, Chrome, user-0) after 21:00. Not counted: an open view, a view
 * before the range, and an older version of view 0 (FINAL drops it).
 */
export function onDemandViews(): Record<string, unknown>[] {
  const from = RANGE_FROM.getTime();
  const rows = [];
  for (let i = 0; i < 40; i++) {
    const start = from + i * 30 * MIN + MIN;
    rows.push(
      view(`vod-${i}`, start, start + 10 * MIN, {
        environment_id: i % 2 === 0 ? 'env-a' : 'env-b',
        asset_id: `asset-${i % 4}`,
        playback_id: `pb-${i % 4}`,
        video_title: `Video ${i % 4}`,
        viewer_user_id: `user-${i % 10}`,
        viewer_application_name: BROWSERS[i % 4],
        viewer_os_family: OSES[i % 4],
        country_name: COUNTRIES[i % 4],
        watched: true,
        watch_time: 10 * MIN,
        view_playing_time: (1 + (i % 5)) * MIN,
        time_to_first_frame: 500 + 100 * (i % 10),
        buffering_count: i % 2 === 0 ? 1 : 0,
        buffering_duration: i % 2 === 0 ? 1000 : 0,
        playback_score: 1,
        startup_score: 0.9,
        rebuffering_score: 0.8,
        quality_score: 0.95,
        viewer_experience_score: 0.8,
      }),
    );
  }
  for (let i = 0; i < 4; i++) {
    const start = from + 21 * 60 * MIN + i * 5 * MIN;
    rows.push(
      view(`failed-${i}`, start, start + MIN, {
        environment_id: 'env-b',
        asset_id: 'asset-9',
        playback_id: 'pb-9',
        viewer_user_id: 'user-0',
        viewer_application_name: 'Chrome',
        viewer_os_family: 'Windows',
        country_name: 'France',
        view_playing_time: 0,
        playback_failure: true,
        video_startup_failure: true,
        error_type_id: 42,
        player_error_code: '2',
        player_error_message: 'manifest load error',
        player_error_severity: 'fatal',
        playback_score: 0,
        viewer_experience_score: 0,
      }),
    );
  }
  rows.push(view('open-vod', from + 60 * MIN, null, { environment_id: 'env-a', asset_id: 'asset-0', viewer_user_id: 'user-99', view_playing_time: MIN }));
  rows.push(view('before-range', from - 120 * MIN, from - 100 * MIN, { environment_id: 'env-a', asset_id: 'asset-0', viewer_user_id: 'user-98' }));
  rows.push({ ...rows[0], version: 3, view_playing_time: 999 * MIN, viewer_user_id: 'user-old' });
  return rows;
}

/**
 * Live views, relative to now: ls-1 has 3 open views (users u1, u2, u2; one with a warning), ls-2
 * one open view (u3), one silent for 10 min (not concurrent now) and one closed.
 */
export function liveViews(now: number): Record<string, unknown>[] {
  const live = (id: string, stream: string, start: number, lastBeacon: number, end: number | null, fields: Record<string, unknown> = {}) => ({
    ...view(id, start, end, { environment_id: 'env-a', live_stream_id: stream, playback_id: `pb-${stream}`, video_stream_type: 'live', ...fields }),
    last_beacon_at: iso(lastBeacon),
  });
  return [
    live('live-1', 'ls-1', now - 20 * MIN, now - 5_000, null, { viewer_user_id: 'u1' }),
    live('live-2', 'ls-1', now - 20 * MIN, now - 5_000, null, { viewer_user_id: 'u2' }),
    live('live-3', 'ls-1', now - 20 * MIN, now - 5_000, null, {
      viewer_user_id: 'u2',
      error_type_id: 7,
      player_error_code: '3',
      player_error_message: 'fragment load timeout',
      player_error_severity: 'warning',
    }),
    live('live-4', 'ls-2', now - 15 * MIN, now - 5_000, null, { viewer_user_id: 'u3', environment_id: 'env-b' }),
    live('live-silent', 'ls-2', now - 40 * MIN, now - 10 * MIN, null, { viewer_user_id: 'u4' }),
    live('live-closed', 'ls-2', now - 30 * MIN, now - 25 * MIN, now - 25 * MIN, { viewer_user_id: 'u5', watched: true }),
  ];
}

/**
 * Deliveries: asset-0 1080p 100 s at 00:00 and 50 s at 01:00, asset-1 720p 30 s at 00:00 and
 * audio_only 20 s at 02:00 (200 s in all); asset-2 outside the range. The hourly table is filled by
 * its materialized view from these inserts.
 */
export function deliveryItems(): Record<string, unknown>[] {
  const hour = (h: number) => iso(RANGE_FROM.getTime() + h * 60 * MIN);
  const item = (batch: string, h: number, asset: string, tier: string, seconds: number) => ({
    batch_id: batch,
    reported_at: hour(h + 1),
    hour: hour(h),
    playback_id: `pb-${asset}`,
    asset_id: asset,
    live_stream_id: null,
    resolution_tier: tier,
    media_seconds: seconds,
    bytes: seconds * 1000,
    segments: Math.ceil(seconds / 4),
  });
  return [
    item('b1', 0, 'asset-0', '1080p', 60),
    item('b2', 0, 'asset-0', '1080p', 40),
    item('b2', 0, 'asset-1', '720p', 30),
    item('b3', 1, 'asset-0', '1080p', 50),
    item('b4', 2, 'asset-1', 'audio_only', 20),
    item('b5', -48, 'asset-2', '1080p', 500),
  ];
}

/** asset-0 twice (the later event wins under FINAL), asset-1 deleted. */
export function deliveryAssets(): Record<string, unknown>[] {
  const asset = (id: string, version: number, fields: Record<string, unknown>) => ({
    asset_id: id,
    version,
    status: 'ready',
    duration: 60,
    resolution_tier: '1080p',
    created_at: 1,
    ...fields,
  });
  return [
    asset('asset-0', 1, { passthrough: 'zero (old)' }),
    asset('asset-0', 2, { passthrough: 'zero' }),
    asset('asset-1', 1, { passthrough: 'one', deleted_at: 2, status: 'deleted', duration: 30 }),
  ];
}
