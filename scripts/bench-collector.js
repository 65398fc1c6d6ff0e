#!/usr/bin/env node
// Beacon collector figures (`node scripts/bench-collector.js` after `npm run build`; meant for `npm run bench -- collector`):
// POSTs and beacon events per second one collector accepts and its p50/p99 latency, with the in-process bus and one
// consumer taking every batch. Each POST is the largest captured mux-embed POST of a view (playback events,
// hls.js requestcompleted events and all) under a view id of its own, sent by `CONCURRENCY` keep-alive clients.
// Returns the expanded batches the consumer took and the accepted rate, for the view builder's bench (bench-views.js).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'services/analytics/dist/collector');
const POSTS = Number(process.env.BENCH_COLLECTOR_POSTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_COLLECTOR_CONCURRENCY ?? 16);
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function benchCollector() {
  const { InProcessBus, BEACONS_STREAM, dataTopicOf } = require('@platform/events');
  const { loadConfig } = require('@platform/config');
  const { CollectorHandler } = require(path.join(DIST, 'collector-handler.js'));
  const { CollectorServer } = require(path.join(DIST, 'collector-server.js'));
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'services/analytics/src/collector/fixtures/playback-view.json'), 'utf8'));
  const largest = fixture.posts.reduce((a, b) => (b.body.events.length > a.body.events.length ? b : a)).body;
  const template = JSON.stringify(largest);
  const viewId = largest.events[0].xid;
  const eventsPerPost = largest.events.length;

  const bus = new InProcessBus();
  let consumed = 0;
  const batches = [];
  const take = async (e) => {
    consumed += e.data.events.length;
    batches.push(e.data);
  };
  await bus.subscribe({ group: 'bench', topics: [dataTopicOf(BEACONS_STREAM)], handle: take });
  await bus.start();
  const handler = new CollectorHandler(bus, loadConfig({}).collector);
  const server = new CollectorServer(handler, []);
  const port = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}/`;
  const bodies = Array.from({ length: POSTS }, (_, i) => template.replaceAll(viewId, `bench-view-${i}`));
  const post = (body) => fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain', 'user-agent': UA }, body });
  for (let i = 0; i < 50; i++) await (await post(bodies[i])).arrayBuffer(); // warm-up (JIT, the UA cache)

  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < POSTS) {
        const body = bodies[next++];
        const t = performance.now();
        const res = await post(body);
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        if (res.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await server.close();
  await bus.close();
  latencies.sort((a, b) => a - b);
  const kib = (Buffer.byteLength(template) / 1024).toFixed(1);
  console.log(`\nBeacon collector (in-process bus, one consumer), ${os.cpus().length} cores, client in the same process`);
  console.log(`${POSTS} POSTs of ${eventsPerPost} events (${kib} KiB, the largest captured POST), c=${CONCURRENCY}`);
  console.log(`  ${(POSTS / seconds).toFixed(0)} POSTs/s, ${((POSTS * eventsPerPost) / seconds).toFixed(0)} events/s accepted`);
  console.log(
    `  latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms${failures ? `, NOT 200: ${failures}` : ''}`,
  );
  console.log(`  events consumed from the bus by the end: ${consumed}`);
  if (failures) process.exitCode = 1;
  return { batches, eventsPerSecond: (POSTS * eventsPerPost) / seconds };
}

module.exports = { benchCollector };

if (require.main === module) {
  benchCollector().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
