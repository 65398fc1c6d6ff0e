#!/usr/bin/env node
// View builder figures (`node scripts/bench-views.js` after `npm run build`; meant for `npm run bench -- collector`):
// beacon events per second the view builder folds and stores, fed the expanded batches the collector bench's consumer
// took (bench-collector.js), one batch after another as the in-process bus hands them to the `analytics.views` consumer.
// Storage is embedded chDB in a temp directory with the views migrations; playback ids are left unresolved (no gRPC).
// Every batch is a view new to the builder (the collector bench gives each POST its own view id), so each one also
// pays the storage look-up a view's first batch pays: the builder's slow path, not its cached one. That POST has no
// viewstart, so those batches write no view row; a second pass feeds whole captured views (the fixture's 4 POSTs
// under `BENCH_VIEWS_VIEWS` view ids, interleaved as concurrent viewers' POSTs arrive): each POST stores its events
// and a new version of the view's row, the first one misses the cache.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'services/analytics/dist');
const WARM_UP = 50;
const WHOLE_VIEWS = Number(process.env.BENCH_VIEWS_VIEWS ?? 500);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function benchViews(batches, collectorEventsPerSecond) {
  const { ChdbStore } = require(path.join(DIST, 'clickhouse/chdb-store.js'));
  const { runStoreMigrations } = require(path.join(DIST, 'clickhouse/store-migrations.js'));
  const { VIEW_MIGRATIONS } = require(path.join(DIST, 'views/views.migrations.js'));
  const { ClickHouseViewRepository } = require(path.join(DIST, 'views/clickhouse-view-repository.js'));
  const { UnresolvedPlaybackIds } = require(path.join(DIST, 'views/playback-id-resolver.js'));
  const { DEFAULT_VIEWS_OPTIONS } = require(path.join(DIST, 'views/views.options.js'));
  const { ViewBuilder } = require(path.join(DIST, 'views/view-builder.js'));

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-views-'));
  const store = ChdbStore.openAt(dataDir);
  try {
    await runStoreMigrations(store, VIEW_MIGRATIONS);
    const builder = new ViewBuilder(new ClickHouseViewRepository(store), new UnresolvedPlaybackIds(), DEFAULT_VIEWS_OPTIONS);
    // The collector bench's warm-up POSTs come first (and are posted again in its timed run): they warm the builder up.
    const warmUp = batches.slice(0, WARM_UP);
    for (const batch of warmUp) await builder.ingest(batch);
    const warmIds = new Set(warmUp.map((b) => b.view_id));
    const timed = batches.slice(WARM_UP).filter((b) => !warmIds.has(b.view_id));

    console.log(`\nView builder (embedded chDB, one batch at a time as the in-process bus delivers), ${os.cpus().length} cores`);
    const same = await ingestAll(builder, timed, `${timed.length} batches of the collector bench (each a new view)`);
    const whole = await ingestAll(builder, wholeViewBatches(WHOLE_VIEWS), `${WHOLE_VIEWS} whole captured views (4 POSTs each)`);
    const [{ events: stored }] = await store.query('SELECT count() AS events FROM view_events');
    console.log(`  view_events rows stored: ${stored}`);
    if (collectorEventsPerSecond !== undefined) {
      const ratio = Math.min(same, whole) / collectorEventsPerSecond;
      console.log(
        ratio >= 1
          ? `  keeps up with the collector: ${ratio.toFixed(2)}x its ${collectorEventsPerSecond.toFixed(0)} events/s`
          : `  does NOT keep up with one saturated collector: ${(ratio * 100).toFixed(0)} % of its ${collectorEventsPerSecond.toFixed(0)} events/s (the bus backlog grows while beacons come faster than that)`,
      );
    }
    return { eventsPerSecond: Math.min(same, whole) };
  } finally {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Feeds the batches one at a time, prints the rate and per-batch latency, returns events/s. */
async function ingestAll(builder, batches, label) {
  const latencies = [];
  let applied = 0;
  let rows = 0;
  const started = performance.now();
  for (const batch of batches) {
    const t = performance.now();
    const result = await builder.ingest(batch);
    latencies.push(performance.now() - t);
    applied += result.applied;
    if (result.rowWritten) rows++;
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const events = batches.reduce((n, b) => n + b.events.length, 0);
  console.log(`${label}: ${events} events, ${rows} view rows written`);
  console.log(
    `  ${(batches.length / seconds).toFixed(0)} batches/s, ${(applied / seconds).toFixed(0)} events/s folded and stored; per batch p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  if (applied !== events) {
    console.log(`  APPLIED ${applied} OF ${events} EVENTS`);
    process.exitCode = 1;
  }
  return applied / seconds;
}

/** The captured view's POSTs expanded as the collector does, under `count` view ids: every view's first POST, then every second one, … */
function wholeViewBatches(count) {
  const { loadConfig } = require('@platform/config');
  const { parseBeaconPayload } = require(path.join(DIST, 'collector/beacon-payload.js'));
  const { beaconBatches } = require(path.join(DIST, 'collector/beacon-batches.js'));
  const { parseUserAgent } = require(path.join(DIST, 'collector/user-agent-fields.js'));
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'services/analytics/src/collector/fixtures/playback-view.json'), 'utf8'));
  const limits = loadConfig({}).collector;
  const viewId = fixture.posts[0].body.events[0].xid;
  const enrichment = { ...parseUserAgent(fixture.user_agent) };
  const start = Date.now();
  const out = [];
  fixture.posts.forEach((post, n) => {
    const template = JSON.stringify(post.body);
    for (let i = 0; i < count; i++) {
      const payload = parseBeaconPayload(template.replaceAll(viewId, `bench-whole-view-${i}`), limits);
      if (!payload.ok) throw new Error(`fixture POST ${n}: ${payload.reason}`);
      out.push(...beaconBatches(payload.events, enrichment, start + n * 10_000).batches);
    }
  });
  return out;
}

/** The collector bench, then the view builder on what its consumer took. */
async function benchCollectorAndViews() {
  const { benchCollector } = require('./bench-collector');
  const collector = await benchCollector();
  await benchViews(collector.batches, collector.eventsPerSecond);
}

module.exports = { benchViews, benchCollectorAndViews };

if (require.main === module) {
  benchCollectorAndViews().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
