#!/usr/bin/env node
// Records what the real mux-embed sends: `node scripts/testing/capture-beacons.js [outDir]`.
// Makes a 30 s two-rendition HLS stream with ffmpeg, serves it (as our playback host would, at
// /{PLAYBACK_ID}.m3u8) with a page of hls.js + mux-embed from node_modules, points mux-embed's
// beaconCollectionDomain at a capture endpoint on `localhost:PORT` (mux-embed then posts over http), and
// drives Debian's Chromium: one view that plays, switches rendition, stalls on a slow segment, seeks,
// pauses, plays and is destroyed (viewend); one view of a broken source (a 404 master: an error view).
// Each view's POST bodies, as sent (minified keys), go to <outDir>/<view>.json (default: the collector's
// fixtures), with machine-specific values (ports, the Chromium version) replaced by fixed ones.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { pageHtml } = require('./capture-beacons-page');

const ROOT = path.resolve(__dirname, '../..');
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'services/analytics/src/collector/fixtures'));
const PLAYBACK_ID = 'c4pTuReD01PlaybackId00SoUrce';
const ENV_KEY = 'capturedenvkey01';
/** The one segment held back so the player stalls (rendition `1`, which the page forces before it). */
const SLOW_SEGMENT = /\/1\/seg_004\.ts$/;
const SLOW_MS = 7000;

function makeStream(dir) {
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30:duration=30', '-f', 'lavfi', '-i', 'sine=duration=30'],
    ...['-filter_complex', '[0:v]split=2[a][b];[b]scale=320:180[c]', '-map', '[c]', '-map', '1:a', '-map', '[a]', '-map', '1:a'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-c:a', 'aac', '-b:a', '64k'],
    ...['-b:v:0', '300k', '-b:v:1', '900k', '-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod'],
    ...['-hls_segment_filename', path.join(dir, '%v/seg_%03d.ts'), '-master_pl_name', 'master.m3u8', '-var_stream_map', 'v:0,a:0 v:1,a:1'],
    path.join(dir, '%v/index.m3u8'),
  ]);
}

function listen(handler) {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Media as the playback host lays it out: the master at /{id}.m3u8, renditions under /{id}/. */
function mediaServer(dir) {
  return listen((req, res) => {
    const url = new URL(req.url, 'http://x');
    const cors = { 'access-control-allow-origin': '*' };
    const file = url.pathname === `/${PLAYBACK_ID}.m3u8` ? 'master.m3u8' : url.pathname.replace(`/${PLAYBACK_ID}/`, '');
    const full = path.join(dir, path.normalize(file));
    if (!full.startsWith(dir) || !fs.existsSync(full) || fs.statSync(full).isDirectory()) return void res.writeHead(404, cors).end();
    let body = fs.readFileSync(full);
    if (file === 'master.m3u8') body = Buffer.from(body.toString().replace(/^(\d)\//gm, `${PLAYBACK_ID}/$1/`));
    const type = full.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t';
    setTimeout(() => res.writeHead(200, { ...cors, 'content-type': type }).end(body), SLOW_SEGMENT.test(url.pathname) ? SLOW_MS : 0);
  });
}

function collector(posts) {
  return listen((req, res) => {
    const cors = { 'access-control-allow-origin': '*' };
    if (req.method === 'OPTIONS')
      return void res.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'Content-Type' }).end();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      posts.push({ path: req.url, contentType: req.headers['content-type'], userAgent: req.headers['user-agent'], body: Buffer.concat(chunks).toString() });
      res.writeHead(200, cors).end();
    });
  });
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-beacons-'));
  makeStream(dir);
  const posts = [];
  const media = await mediaServer(dir);
  const beacons = await collector(posts);
  const page = await listen((req, res) => {
    const url = new URL(req.url, 'http://x');
    const scripts = { '/hls.js': 'hls.js/dist/hls.min.js', '/mux.js': 'mux-embed/dist/mux.js' };
    if (scripts[url.pathname])
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(path.join(ROOT, 'node_modules', scripts[url.pathname])));
    res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml);
  });
  const ports = { media: media.address().port, collector: beacons.address().port, page: page.address().port };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? execFileSync('bash', [path.join(ROOT, 'scripts/infra/chromium.sh')], { encoding: 'utf8' }).trim(),
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required', '--disable-background-networking'],
  });
  try {
    const tab = await browser.newPage();
    tab.on('console', (m) => console.log(`  [page] ${m.text()}`));
    await tab.goto(`http://localhost:${ports.page}/`);
    const src = `http://localhost:${ports.media}/${PLAYBACK_ID}.m3u8?token=captured-token`;
    const domain = `localhost:${ports.collector}`;
    await tab.evaluate(([s, d]) => globalThis.capture.playbackView(s, d), [src, domain]);
    await tab.evaluate(([s, d, k]) => globalThis.capture.errorView(s, d, k), [`http://localhost:${ports.media}/n0tAPlaybackId404.m3u8`, domain, ENV_KEY]);
    await new Promise((r) => setTimeout(r, 2000)); // the last flushes
    save(posts, ['playback', 'error'], ports);
  } finally {
    await browser.close();
    for (const s of [media, beacons, page]) s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const versionOf = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;

/** Machine-specific values out: the ports become the runtime contract's defaults, the browser's version a fixed one. */
function sanitise(text, ports) {
  return text
    .replaceAll(`localhost:${ports.media}`, 'localhost:8081')
    .replaceAll(`localhost:${ports.collector}`, 'localhost:8084')
    .replaceAll(`localhost:${ports.page}`, 'localhost:3000')
    .replace(/(Chrome\/)\d+\.\d+\.\d+\.\d+/g, '$1140.0.0.0');
}

/** The views in the order their first beacons came; a POST carries one monitor's events, so one view's. */
function save(posts, names, ports) {
  fs.mkdirSync(OUT, { recursive: true });
  const viewOf = (post) => JSON.parse(post.body).events[0]?.xid;
  const viewIds = [...new Set(posts.map(viewOf))];
  if (viewIds.length !== names.length) throw new Error(`expected ${names.length} views, got ${viewIds.length}`);
  for (const [i, name] of names.entries()) {
    const mine = posts.filter((p) => viewOf(p) === viewIds[i]);
    const fixture = {
      description: `mux-embed ${versionOf('mux-embed')} with hls.js ${versionOf('hls.js')}, Chromium: the ${name} view, each POST as sent`,
      user_agent: sanitise(mine[0]?.userAgent ?? '', ports),
      posts: mine.map((p) => ({ path: p.path, content_type: p.contentType, body: JSON.parse(sanitise(p.body, ports)) })),
    };
    const file = path.join(OUT, `${name}-view.json`);
    fs.writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
    const events = fixture.posts.flatMap((p) => p.body.events.map((e) => e.e));
    console.log(`${path.relative(ROOT, file)}: ${mine.length} POSTs, events ${events.join(' ')}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
