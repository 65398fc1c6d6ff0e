#!/usr/bin/env node
// `npm run bench`: figures for the embedded platform as a user runs it.
//   - time from process start to /healthz 200, and resident memory after start and under load
//   - latency percentiles and throughput of the first resources through the whole stack
//   - media: create → ready time and ladder encoding speed (scripts/bench-media.js)
//   - static MP4 renditions after ready, against plain ffmpeg making the same files (scripts/bench-mp4.js)
//   - clips: a 10 s clip of a 10 min 1080p asset, create → ready (scripts/bench-clips.js)
//   - images: thumbnails cold and cached, a storyboard, animated GIFs of a 10 min 1080p asset (scripts/bench-images.js)
//   - uploads, live latency and concurrency, generated live subtitles (bench-uploads, bench-live, bench-captions)
//   - the API under open-loop load at fixed offered rates (bench-api, bench-load)
//   - analytics: beacons/s one collector accepts and its p50/p99 latency, then the view builder's rate on those
//     beacons into embedded chDB (bench-collector, bench-views; in a process of its own, after the platform has stopped)
//   - metrics: Data API overall, breakdown and timeseries latency over 10 million synthetic views in embedded chDB
//     (bench-metrics; BENCH_METRICS_VIEWS to change; in a process of its own, after the platform has stopped)
//   - live ladder: CPU per live session by LIVE_LADDER setting at 720p and 1080p, and the 1080p full-ladder sessions
//     this machine keeps in real time (bench-ladder; in a process of its own, after the platform has stopped)
//   - web inputs: CPU and memory of one capture job at 720p and 1080p, and launch → first frame (bench-web-inputs)
//   - spaces: 2 to 8 Chromium participants in one space through the SFU, then a broadcast compositor beside 4 of them
//     (bench-spaces; in a process of its own, after the platform has stopped)
// `npm run bench -- api` runs only the start figures and the open-loop API part; `-- mp4` only the static MP4 part;
// `-- images` only the image part; `-- collector` only the collector and view builder part; `-- metrics` only the
// metrics part; `-- ladder` only the live ladder part; `-- web-inputs` only the web inputs part; `-- spaces` only the spaces
// part (`-- spaces 2,4`: other participant counts) (these do not start the platform).
// Builds first (like npm start), then boots `node scripts/start.js` on free ports.
'use strict';
const { spawn, spawnSync, execSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { benchMedia, prepareMediaSources } = require('./bench-media');
const { benchStaticRenditions, prepareStaticRenditionsSource } = require('./bench-mp4');
const { benchClips } = require('./bench-clips');
const { benchImages, prepareImagesSource } = require('./bench-images');
const { benchUploads, prepareUploadSource } = require('./bench-uploads');
const { benchGlass, benchLive, prepareLiveSource } = require('./bench-live');
const { benchCaptions, prepareCaptionsSource } = require('./bench-captions');
const { benchApi, prepareApiSource } = require('./bench-api');
const { benchCollectorAndViews } = require('./bench-views');
const { benchMetrics } = require('./bench-metrics');
const { benchLadder } = require('./bench-ladder');
const { benchWebInputs } = require('./bench-web-inputs');
const { benchSpaces } = require('./bench-spaces');

const ROOT = path.resolve(__dirname, '..');
const TOKEN = { id: 'bench', secret: 'bench-secret' };
const auth = `Basic ${Buffer.from(`${TOKEN.id}:${TOKEN.secret}`).toString('base64')}`;

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function memoryMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)[1]);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function load(baseUrl, name, total, concurrency, request, expectedStatus = [200, 201]) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const res = await request(i);
        latencies.push(performance.now() - t);
        if (!expectedStatus.includes(res.status)) failures++;
        await res.arrayBuffer();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const f = (ms) => ms.toFixed(1).padStart(7);
  console.log(
    `${name.padEnd(34)} ${String(total).padStart(5)} req  c=${concurrency}  ${(total / seconds).toFixed(0).padStart(5)} req/s  p50 ${f(percentile(latencies, 50))} ms  p95 ${f(percentile(latencies, 95))} ms  p99 ${f(percentile(latencies, 99))} ms${failures ? `  UNEXPECTED STATUS ${failures}` : ''}`,
  );
  if (failures) process.exitCode = 1;
}

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' });
  if (process.argv.includes('collector')) return benchCollectorAndViews();
  if (process.argv.includes('metrics')) return benchMetrics();
  if (process.argv.includes('ladder')) return benchLadder();
  if (process.argv.includes('web-inputs')) return benchWebInputs();
  if (process.argv.includes('spaces')) return benchSpaces();
  const apiOnly = process.argv.includes('api');
  const mp4Only = process.argv.includes('mp4');
  const imagesOnly = process.argv.includes('images');
  const glassOnly = process.argv.includes('glass');
  const skip = (part) => apiOnly || mp4Only || imagesOnly || glassOnly || process.argv.includes(`--no-${part}`);
  const apiSource = process.argv.includes('--no-api') || mp4Only || imagesOnly || glassOnly ? undefined : prepareApiSource();
  const imagesSource = imagesOnly || !skip('images') ? prepareImagesSource() : undefined;
  const media = skip('media') && skip('clips') ? undefined : prepareMediaSources();
  const mp4Source = mp4Only ? prepareStaticRenditionsSource() : media;
  const uploads = !skip('uploads');
  if (uploads) prepareUploadSource();
  const liveSource = skip('live') ? undefined : prepareLiveSource();
  const speech = skip('captions') ? undefined : prepareCaptionsSource(); // independent of the live part: `--no-live` keeps it
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    ACCESS_TOKEN_ID: TOKEN.id,
    ACCESS_TOKEN_SECRET: TOKEN.secret,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
  };
  env.API_PORT = String(await freePort());
  env.STREAM_PORT = String(await freePort());
  env.IMAGE_PORT = String(await freePort());
  env.COLLECTOR_PORT = String(await freePort());
  env.UPLOAD_PORT = String(await freePort());
  env.RTMP_PORT = String(await freePort());
  env.SRT_PORT = String(await freePort());
  env.UPLOAD_BASE_URL = `http://127.0.0.1:${env.UPLOAD_PORT}`;
  for (const prefix of ['ASSETS', 'LIVE', 'UPLOADS', 'PLAYBACK_AUTH', 'SPACES', 'WEB_INPUTS', 'ANALYTICS', 'TRANSCODER', 'WEBHOOKS']) {
    env[`${prefix}_GRPC_URL`] = `127.0.0.1:${await freePort()}`;
  }
  const baseUrl = `http://127.0.0.1:${env.API_PORT}`;

  // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the platform under the bench;
  // BENCH_PLATFORM_STDOUT=file keeps what the platform prints there (BENCH_NODE_ARGS=--trace-gc-nvp: every GC)
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // BENCH_TRACE=dir: stalls and GCs of every thread, CPU and run-queue waits (scripts/bench-trace)
  const traceDir = process.env.BENCH_TRACE;
  if (traceDir) {
    fs.mkdirSync(traceDir, { recursive: true });
    require('./bench-trace/probe').startProbe(traceDir, 'generator');
    nodeArgs.unshift('-r', path.join(__dirname, 'bench-trace', 'probe.js'));
  }
  const stdout = process.env.BENCH_PLATFORM_STDOUT ? fs.openSync(process.env.BENCH_PLATFORM_STDOUT, 'w') : 'ignore';
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'scripts/start.js')], { cwd: ROOT, env, stdio: ['ignore', stdout, 'inherit'] });
  const sampler =
    traceDir && spawn(process.execPath, [path.join(__dirname, 'bench-trace', 'sampler.js'), traceDir, child.pid, process.pid], { stdio: 'inherit' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('platform exited during start');
      const ok = await fetch(`${baseUrl}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (performance.now() - t0 > 120_000) throw new Error('platform not healthy after 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const startMs = performance.now() - t0;
    const idle = memoryMiB(child.pid);
    console.log(`\nEmbedded platform (10 services, PGlite, in-process bus), ${os.cpus().length} cores`);
    console.log(`start to healthy (fresh DATA_DIR)   ${startMs.toFixed(0)} ms`);
    console.log(`resident memory after start         ${idle.rss} MiB\n`);

    const json = (method, url, body) =>
      fetch(`${baseUrl}${url}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    if (glassOnly) return await benchGlass({ json, streamUrl: `http://127.0.0.1:${env.STREAM_PORT}`, rtmpPort: env.RTMP_PORT });
    if (apiSource) await benchApi({ json, baseUrl, streamUrl: `http://127.0.0.1:${env.STREAM_PORT}`, auth, pid: child.pid }, apiSource);
    if (mp4Only) {
      await benchStaticRenditions({ json, streamUrl: `http://127.0.0.1:${env.STREAM_PORT}` }, mp4Source);
      return;
    }
    const imageUrl = `http://127.0.0.1:${env.IMAGE_PORT}`;
    if (imagesOnly) {
      await benchImages({ json, imageUrl, dataDir }, imagesSource);
      return;
    }
    if (apiOnly) {
      const after = memoryMiB(child.pid);
      console.log(`\nresident memory after the API load  ${after.rss} MiB (peak ${after.peak} MiB)`);
      return;
    }
    console.log('');
    await load(baseUrl, 'GET /healthz (no auth)', 500, 8, () => fetch(`${baseUrl}/healthz`));
    await load(baseUrl, 'POST playback-restrictions', 500, 8, (i) =>
      json('POST', '/video/v1/playback-restrictions', { referrer: { allowed_domains: [`s${i}.bench.test`] } }),
    );
    await load(baseUrl, 'GET playback-restrictions?limit=25', 500, 8, () => json('GET', '/video/v1/playback-restrictions?limit=25'));
    await load(baseUrl, 'POST transcription-vocabularies', 500, 8, (i) =>
      json('POST', '/video/v1/transcription-vocabularies', { phrases: [`p${i}`, 'HLS', 'Mux'] }),
    );
    await load(baseUrl, 'POST signing-keys (RSA 2048 keygen)', 40, 2, () => json('POST', '/system/v1/signing-keys'));
    await load(baseUrl, 'GET 400 (validation error)', 500, 8, () => json('GET', '/system/v1/signing-keys?limit=0'), [400]);
    const loaded = memoryMiB(child.pid);
    console.log(`\nresident memory after load          ${loaded.rss} MiB (peak ${loaded.peak} MiB)`);
    if (media && !skip('media')) {
      await benchMedia({ json, streamUrl: `http://127.0.0.1:${env.STREAM_PORT}` }, media);
      const after = memoryMiB(child.pid);
      console.log(`resident memory after media         ${after.rss} MiB (peak ${after.peak} MiB)`);
    }
    if (mp4Source && !skip('mp4')) await benchStaticRenditions({ json, streamUrl: `http://127.0.0.1:${env.STREAM_PORT}` }, mp4Source);
    if (media && !skip('clips')) await benchClips({ json, dataDir, pid: child.pid }, media);
    if (imagesSource) await benchImages({ json, imageUrl, dataDir }, imagesSource);
    if (uploads) await benchUploads({ json, pid: child.pid, dataDir });
    if (liveSource) await benchLive({ json, streamUrl: `http://127.0.0.1:${env.STREAM_PORT}`, rtmpPort: env.RTMP_PORT }, liveSource);
    if (speech) await benchCaptions({ json, streamUrl: `http://127.0.0.1:${env.STREAM_PORT}`, rtmpPort: env.RTMP_PORT }, speech);
  } finally {
    if (sampler) sampler.kill('SIGTERM');
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  // each in a process of its own: chDB binds one data directory per process
  if (!skip('collector')) runPartAlone('collector');
  if (!skip('metrics')) runPartAlone('metrics');
  if (!skip('ladder')) runPartAlone('ladder');
  if (!skip('web-inputs')) runPartAlone('web-inputs');
  if (!skip('spaces')) runPartAlone('spaces');
}

/** `node scripts/bench.js <part>` as a child (the build is done: BENCH_SKIP_BUILD). */
function runPartAlone(part) {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bench.js'), part], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_SKIP_BUILD: '1' },
  });
  if (result.status !== 0) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
