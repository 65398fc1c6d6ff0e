// API under open-loop load for `npm run bench` (`npm run bench -- api` runs only this part):
// GET /video/v1/assets/{id} of a ready asset and POST /video/v1/playback-restrictions, each at fixed
// offered rates (scripts/bench-load.js), after a warm-up at the same rate. BENCH_API_SECONDS sets the
// measured time per rate (default 15), BENCH_API_RATES the rates (default "300,500"), BENCH_API_SCENARIOS
// which requests ("get,post", the default).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { ffmpegPath } = require('./bench-support');
const { openLoop, formatRun } = require('./bench-load');

const CACHE = path.join(__dirname, '..', '.cache', 'bench-api');

/** A 2 s 320x180 clip: its ladder is done within the warm-up, so the asset costs nothing during the runs. */
function prepareApiSource() {
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, 'small-2s.mp4');
  if (fs.existsSync(file)) return file;
  const tmp = `${file}.part.mp4`;
  execFileSync(ffmpegPath(), [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30:duration=2'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '60', '-c:a', 'aac', '-movflags', '+faststart', tmp],
  ]);
  fs.renameSync(tmp, file);
  return file;
}

async function readyAsset(json, streamUrl, file) {
  const server = http.createServer((_req, res) => res.end(fs.readFileSync(file)));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const created = await json('POST', '/video/v1/assets', {
      inputs: [{ url: `http://127.0.0.1:${server.address().port}/small.mp4` }],
      playback_policies: ['public'],
    });
    const { id, playback_ids: playbackIds } = (await created.json()).data;
    const deadline = performance.now() + 60_000;
    for (;;) {
      const { status } = (await (await json('GET', `/video/v1/assets/${id}`)).json()).data;
      if (status === 'ready') break;
      if (status !== 'preparing' || performance.now() > deadline) throw new Error(`bench asset ${id} is ${status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The ladder replaces the stream-copied source rendition: wait for it, so no encoding runs during the load.
    const master = `${streamUrl}/${playbackIds[0].id}.m3u8`;
    while ((await (await fetch(master)).text()).includes('source/')) {
      if (performance.now() > deadline) throw new Error(`the ladder of bench asset ${id} did not finish`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return id;
  } finally {
    server.close();
  }
}

async function benchApi({ json, baseUrl, streamUrl, auth, pid }, file) {
  const seconds = Number(process.env.BENCH_API_SECONDS ?? 15);
  const rates = (process.env.BENCH_API_RATES ?? '300,500').split(',').map(Number);
  const assetId = await readyAsset(json, streamUrl, file);
  const headers = { authorization: auth };
  const wanted = (process.env.BENCH_API_SCENARIOS ?? 'get,post').split(',');
  const scenarios = [
    { key: 'get', name: 'GET /video/v1/assets/{id}', request: () => ({ method: 'GET', path: `/video/v1/assets/${assetId}`, headers }), expectedStatus: [200] },
    {
      key: 'post',
      name: 'POST playback-restrictions',
      request: (i) => ({
        method: 'POST',
        path: '/video/v1/playback-restrictions',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ referrer: { allowed_domains: [`load${i}.bench.test`] } }),
      }),
      expectedStatus: [201],
    },
  ];
  console.log(`\nAPI under open-loop load (fixed offered rate, ${seconds} s each after a 3 s warm-up; latency from the scheduled send)`);
  for (const scenario of scenarios.filter((s) => wanted.includes(s.key))) {
    for (const rate of rates) {
      const traceDir = process.env.BENCH_TRACE; // scripts/bench-trace: each request's send time and latency
      const result = await openLoop({ baseUrl, ...scenario, rate, seconds, warmupSeconds: 3, pid, keepRequests: Boolean(traceDir) });
      if (traceDir) fs.writeFileSync(path.join(traceDir, `requests-${scenario.key}-${rate}.json`), JSON.stringify(result.requests));
      // the machine's 1-minute load average: figures taken beside other work are not comparable
      console.log(`${formatRun(scenario.name, result)}  load ${os.loadavg()[0].toFixed(2)}`);
      if (Object.keys(result.errors).length) process.exitCode = 1;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

module.exports = { benchApi, prepareApiSource };
