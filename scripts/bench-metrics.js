#!/usr/bin/env node
// Data API metric figures (`npm run bench -- metrics`, or `node scripts/bench-metrics.js` after `npm run build`):
// median and p95 latency of overall, breakdown and timeseries over BENCH_METRICS_VIEWS (default 10 million) synthetic
// closed views spread over 30 days, in embedded chDB on a temp directory with the real migrations. The queries are the
// service's own (MetricsQuery from the built analytics code), so the SQL timed is the SQL the Data API runs.
// Views are generated in ClickHouse (INSERT … SELECT FROM numbers) under random 32-hex ids (the key order of real view
// ids: every part spans the whole key range), in 30 inserts, plus an open, superseded version of one view in ten (the
// rows FINAL has to collapse).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'services/analytics/dist');
const VIEWS = Number(process.env.BENCH_METRICS_VIEWS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_METRICS_RUNS ?? 7);
const DAYS = 30;
const DAY = 86_400;
const END = Math.floor(Date.UTC(2026, 10, 1) / 1000); // fixed window: the figures do not depend on today's date
const START = END - DAYS * DAY;
const PER_DAY = Math.ceil(VIEWS / DAYS);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// A uniform [0, 1) draw per view and purpose, deterministic in the view number.
const u = (k) => `(cityHash64(number, ${k}) % 1000000) / 1000000`;
/** `{ value: weight, … }` as a weighted pick on draw k. */
function pick(k, weights) {
  const weighted = Object.entries(weights);
  const total = weighted.reduce((s, [, w]) => s + w, 0);
  let acc = 0;
  const arms = weighted.slice(0, -1).flatMap(([value, w]) => [`${u(k)} < ${(acc += w / total).toFixed(4)}`, `'${value}'`]);
  return `multiIf(${arms.join(', ')}, '${weighted.at(-1)[0]}')`;
}

const BROWSERS = { Chrome: 45, Safari: 25, Edge: 8, Firefox: 6, 'Samsung Internet': 4, 'Android WebView': 7, Opera: 2, AppleTV: 3 };
const OSES = { Windows: 30, macOS: 12, iOS: 24, Android: 26, Linux: 3, tvOS: 3, 'Chrome OS': 2 };
const COUNTRIES = { US: 35, GB: 8, DE: 7, FR: 6, IN: 9, BR: 6, JP: 5, CA: 4, AU: 3, NL: 2, ES: 3, IT: 3, MX: 3, KR: 2, SE: 1, PL: 1, NG: 1, ZA: 1 };
const CONTINENT = `multiIf(country_code IN ('US', 'CA', 'MX'), 'NA', country_code = 'BR', 'SA', country_code IN ('IN', 'JP', 'KR'), 'AS', country_code = 'AU', 'OC', country_code IN ('NG', 'ZA'), 'AF', 'EU')`;
const DEVICES = { desktop: 45, phone: 40, tablet: 8, tv: 7 };
const CONNECTIONS = { wifi: 60, cellular: 25, wired: 15 };
const PLAYERS = { 'svc-player': 50, 'video.js': 25, 'hls.js': 15, AVPlayer: 10 };
const CDNS = { cloudfront: 50, fastly: 30, akamai: 20 };
const CODES = { 2: 25, 3: 20, 4: 30, 1000: 15, '-1': 10 };

/** Every column the builder writes, from the view number's draws (the rest of `views` is left NULL or default). */
function viewsSelect(first, count, closed, where = 'true') {
  // View n ends on day ⌊n / PER_DAY⌋ of the window: each insert is one day's views.
  const start = `${START} + (intDiv(number, ${PER_DAY}) + ${u(1)}) * ${DAY}`;
  return `INSERT INTO views (view_id, view_start, view_end, last_beacon_at, inserted_at, updated_at, version, event_count,
      environment_id, asset_id, playback_id, video_id, video_title, view_session_id, viewer_user_id, mux_viewer_id,
      viewer_application_name, viewer_application_version, viewer_os_family, viewer_device_category, viewer_connection_type,
      country_code, country_name, continent_code, player_name, player_software, cdn, player_source_type, video_stream_type,
      player_source_host_name, player_autoplay,
      watch_time, view_playing_time, time_to_first_frame, player_startup_time, page_load_time, aggregate_startup_time,
      buffering_count, buffering_duration, buffering_rate, rebuffer_percentage, view_seek_count, seek_latency,
      upscale_percentage, downscale_percentage, view_max_upscale_percentage, view_max_downscale_percentage, weighted_average_bitrate,
      rendition_change_count, rendition_upshift_count, rendition_downshift_count,
      player_error_code, player_error_severity, error_type_id, playback_failure_error_type_id,
      watched, exit_before_video_start, playback_failure, video_startup_failure, playback_business_exception,
      video_startup_business_exception, view_dropped, used_fullscreen, used_captions, used_pip,
      playback_score, startup_score, rebuffering_score, quality_score, viewer_experience_score)
    SELECT view_id, view_start, ${closed ? 'ended' : 'NULL'}, last_beacon_at, view_start, last_beacon_at, version, event_count,
      'bench-env', asset_id, concat('pb-', asset_id), asset_id, concat('Video ', asset_id), view_id, viewer, viewer,
      browser, toString(60 + intDiv(toUInt32(${u(20)} * 100), 10)), os, device, connection,
      country_code, country_code, ${CONTINENT}, player, player, cdn, 'application/x-mpegURL', if(${u(21)} < 0.1, 'live', 'on-demand'),
      concat('stream-', cdn, '.example'), ${u(22)} < 0.3,
      watch, if(failed OR exited, 0, greatest(watch - startup, 0)), if(exited OR failed, NULL, startup), toInt64(startup * 0.4),
      toInt64(300 + ${u(23)} * 2000), toInt64(startup + 300 + ${u(23)} * 2000),
      rebuffers, rebuffer_ms, rebuffers / greatest(watch / 60000, 0.01), rebuffer_ms / greatest(watch, 1),
      toInt64(${u(24)} * 4), if(${u(24)} < 0.5, NULL, 200 + ${u(25)} * 800),
      up, down, up * 1.5, down * 1.5, 1500000 + ${u(26)} * 4500000,
      toUInt32(${u(27)} * 6), toUInt32(${u(27)} * 3), toUInt32(${u(27)} * 3),
      error_code, if(error_code IS NULL, NULL, if(failed, 'fatal', 'warning')), toUInt32OrNull(error_code), if(failed, toUInt32OrNull(error_code), NULL),
      NOT (failed OR exited), exited, failed, failed AND startup_failed, false, false, false, ${u(28)} < 0.2, ${u(29)} < 0.05, ${u(29)} < 0.01,
      if(failed, 0, 1), greatest(0, 1 - startup / 10000), greatest(0, 1 - rebuffer_ms / greatest(watch, 1) * 10), 1 - up,
      if(failed, 0, least(greatest(0, 1 - startup / 10000), greatest(0, 1 - rebuffer_ms / greatest(watch, 1) * 10)))
    FROM (
      SELECT number,
        lower(concat(hex(cityHash64(number, 100)), hex(cityHash64(number, 101)))) AS view_id,
        toDateTime64(${start}, 3, 'UTC') AS ended,
        toInt64(-log(1 - ${u(2)}) * 240000) + 1000 AS watch,
        ended - toIntervalMillisecond(watch) AS view_start,
        ${closed ? 'ended' : 'view_start + toIntervalMillisecond(intDiv(watch, 2))'} AS last_beacon_at,
        ${closed ? 'toUInt64(41)' : 'toUInt64(10)'} AS version,
        ${closed ? 'toUInt32(20)' : 'toUInt32(5)'} AS event_count,
        concat('asset-', toString(toUInt32(pow(${u(3)}, 3) * 2000))) AS asset_id,
        concat('viewer-', toString(cityHash64(number, 4) % ${Math.max(1, Math.floor(VIEWS / 4))})) AS viewer,
        ${pick(5, BROWSERS)} AS browser,
        ${pick(6, OSES)} AS os,
        ${pick(7, COUNTRIES)} AS country_code,
        ${pick(8, DEVICES)} AS device,
        ${pick(9, CONNECTIONS)} AS connection,
        ${pick(10, PLAYERS)} AS player,
        ${pick(11, CDNS)} AS cdn,
        ${u(12)} < 0.015 AS failed,
        ${u(13)} < 0.3 AS startup_failed,
        NOT failed AND ${u(14)} < 0.04 AS exited,
        toInt64(exp(6.6 + 0.7 * sqrt(-2 * log(1 - ${u(15)})) * cos(2 * pi() * ${u(16)}))) AS startup,
        toInt64(if(${u(17)} < 0.8, 0, 1 + ${u(18)} * 5)) AS rebuffers,
        rebuffers * toInt64(500 + ${u(19)} * 3000) AS rebuffer_ms,
        if(${u(30)} < 0.7, 0, ${u(30)} - 0.7) AS up,
        if(${u(31)} < 0.8, 0, ${u(31)} - 0.8) AS down,
        if(failed, ${pick(32, CODES)}, if(${u(33)} < 0.03, '-2', NULL)) AS error_code
      FROM numbers(${first}, ${count})
      WHERE ${where}
    )`;
}

/** A day of closed views per insert, then the superseded open versions. */
function viewInserts() {
  const inserts = [];
  for (let first = 0; first < VIEWS; first += PER_DAY) inserts.push(viewsSelect(first, Math.min(PER_DAY, VIEWS - first), true));
  inserts.push(viewsSelect(0, VIEWS, false, 'number % 10 = 0'));
  return inserts;
}

const BREAKDOWNS = [
  ['video_startup_time', undefined, 'browser'],
  ['video_startup_time', '95th', 'country'],
  ['rebuffer_percentage', undefined, 'operating_system'],
  ['playback_failure_percentage', undefined, 'asset_id'],
  ['viewer_experience_score', undefined, 'cdn'],
  ['views', undefined, 'country'],
];
const OVERALL = [
  ['video_startup_time', undefined],
  ['rebuffer_percentage', undefined],
  ['viewer_experience_score', undefined],
  ['views', undefined],
  ['unique_viewers', undefined],
];
const TIMESERIES = [
  ['video_startup_time', 'day'],
  ['video_startup_time', 'hour'],
  ['views', 'day'],
  ['rebuffer_percentage', 'hour'],
];

async function benchMetrics() {
  const { ChdbStore } = require(path.join(DIST, 'clickhouse/chdb-store.js'));
  const { runStoreMigrations } = require(path.join(DIST, 'clickhouse/store-migrations.js'));
  const { VIEW_MIGRATIONS } = require(path.join(DIST, 'views/views.migrations.js'));
  const { MetricsQuery } = require(path.join(DIST, 'metrics/metrics.query.js'));

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-metrics-'));
  const store = ChdbStore.openAt(dataDir);
  try {
    await runStoreMigrations(store, VIEW_MIGRATIONS);
    await store.command('SYSTEM STOP MERGES views');
    const t0 = performance.now();
    for (const sql of viewInserts()) await store.command(sql);
    const generateSeconds = (performance.now() - t0) / 1000;
    console.log(`\nData API metrics (embedded chDB, MetricsQuery as the service runs it), ${os.cpus().length} cores`);
    console.log(`  ${VIEWS} closed views over ${DAYS} days (+${Math.ceil(VIEWS / 10)} superseded open versions) generated in ${generateSeconds.toFixed(1)} s`);
    console.log(`  ${RUNS} timed runs each after an untimed one; p95 of ${RUNS} is the slowest`);

    const metrics = new MetricsQuery(store);
    const metric = (metric_id, measurement) => ({ metric_id, measurement, query: { timeframe: { start: START, end: END }, filters: [], metric_filters: [] } });
    const breakdowns = async () => {
      const out = [];
      for (const [id, measurement, dimension] of BREAKDOWNS) {
        const request = { metric: metric(id, measurement), group_by: dimension, order_by: 'negative_impact', order_direction: 'desc', limit: 25, page: 1 };
        out.push(await timed(`breakdown ${id}${measurement ? ` (${measurement})` : ''} by ${dimension}`, () => metrics.breakdown(request)));
      }
      return out;
    };
    // As inserted (no merge yet: FINAL merges every day's parts), then as background merges leave past days (one part each).
    console.log(`  as inserted: ${await layout(store)}`);
    const fresh = await breakdowns();
    await store.command('SYSTEM START MERGES views');
    const t1 = performance.now();
    await store.command('OPTIMIZE TABLE views FINAL');
    console.log(`  merged (OPTIMIZE FINAL ${((performance.now() - t1) / 1000).toFixed(1)} s): ${await layout(store)}`);
    const results = await breakdowns();
    for (const [id, measurement] of OVERALL) results.push(await timed(`overall ${id}`, () => metrics.overall(metric(id, measurement))));
    for (const [id, granularity] of TIMESERIES) {
      results.push(
        await timed(`timeseries ${id} by ${granularity}`, () => metrics.timeseries({ metric: metric(id), group_by: granularity, order_direction: 'asc' })),
      );
    }
    const slowest = (rows) => Math.max(...rows.filter((r) => r.label.startsWith('breakdown')).map((r) => r.p50));
    const [asInserted, merged] = [slowest(fresh), slowest(results)];
    console.log(
      `  30-day breakdown aim < 1000 ms: ${merged < 1000 ? 'met' : 'NOT met'} merged, ${asInserted < 1000 ? 'met' : 'NOT met'} as inserted ` +
        `(slowest median ${merged.toFixed(0)} ms, ${asInserted.toFixed(0)} ms)`,
    );
    return results;
  } finally {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function layout(store) {
  const [{ rows, parts, partitions, bytes }] = await store.query(
    `SELECT sum(rows) AS rows, count() AS parts, uniqExact(partition_id) AS partitions, sum(bytes_on_disk) AS bytes
     FROM system.parts WHERE database = currentDatabase() AND table = 'views' AND active`,
  );
  return `${rows} rows in ${parts} parts of ${partitions} partitions, ${(bytes / 2 ** 20).toFixed(0)} MiB on disk`;
}

async function timed(label, run) {
  await run();
  const latencies = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  console.log(`  ${label.padEnd(62)} p50 ${p50.toFixed(0).padStart(6)} ms  p95 ${p95.toFixed(0).padStart(6)} ms`);
  return { label, p50, p95 };
}

module.exports = { benchMetrics, viewInserts };

if (require.main === module) {
  benchMetrics().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
