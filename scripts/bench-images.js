// Image figures for `npm run bench` (called by scripts/bench.js against its running platform), on a 10 min
// 1080p30 asset whose stored rendition is encoded as the ladder's top rung is (x264 veryfast: CABAC, B-frames,
// a key frame every 2 s, 5 Mb/s; generated once, cached under .cache/bench-media): thumbnails made cold
// (p50/p95 over times spread through the asset) and served from the store (cached), the poster Mux Player
// asks for, a storyboard made cold (its VTT, then its sheet), and animated GIFs. The asset's own ladder encode
// is paused (SIGSTOP) while they are timed, so they measure the image host itself.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { load, readyAfter, serve, signal, stopped, waitForLadder } = require('./bench-assets');
const { ffmpegPath } = require('./bench-support');

const ROOT = path.resolve(__dirname, '..');
const CACHE = path.join(ROOT, '.cache', 'bench-media');
const SECONDS = 600;
const SAMPLES = 24;

/** The 10 min source, encoded as the ladder's 1080p rung is (its stream-copied source rendition is then what the ladder would store). */
function prepareImagesSource() {
  const ffmpeg = ffmpegPath();
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `1080p-${SECONDS}s-ladder-like.mp4`);
  if (!fs.existsSync(file)) {
    console.log(`generating ${path.basename(file)} (x264 veryfast, minutes once; cached for later runs)…`);
    const tmp = `${file}.part.mp4`;
    execFileSync(ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${SECONDS}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0'],
      ...['-b:v', '5M', '-maxrate', '5350k', '-bufsize', '7500k', '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-movflags', '+faststart', tmp],
    ]);
    fs.renameSync(tmp, file);
  }
  return { file };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (v) => `${v.toFixed(0)} ms`;

/** Evenly spread times with a fixed jitter, so runs ask for the same moments and every GOP position occurs. */
const times = (count, salt) => Array.from({ length: count }, (_, i) => Number((((i + 0.37 * ((i * 7 + salt) % 5)) * (SECONDS - 2)) / count).toFixed(3)));

async function timed(url, expectCache) {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  const elapsed = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.toString('utf8').slice(0, 300)}`);
  const cache = res.headers.get('x-image-cache');
  if (expectCache && cache && cache !== expectCache) throw new Error(`${url}: expected a cache ${expectCache}, got ${cache}`);
  return { ms: elapsed, bytes: body.length };
}

async function series(name, urls, expectCache, aim) {
  const runs = [];
  for (const url of urls) runs.push((await timed(url, expectCache)).ms);
  const sorted = [...runs].sort((a, b) => a - b);
  console.log(
    `${name.padEnd(58)} p50 ${ms(percentile(sorted, 50)).padStart(7)}  p95 ${ms(percentile(sorted, 95)).padStart(7)}  max ${ms(sorted[sorted.length - 1]).padStart(7)}  (${runs.length} requests${aim ? `; aim ${aim}` : ''})${load()}`,
  );
}

async function benchImages({ json, imageUrl, dataDir }, { file }) {
  console.log(`\nImages (10 min 1080p30 asset, its rendition encoded as the ladder's 1080p rung: x264 veryfast, B-frames, 2 s GOPs)`);
  const server = await serve(file);
  let paused = [];
  let assetId;
  try {
    const { asset } = await readyAfter(json, { inputs: [{ url: server.url }], playback_policies: ['public'] });
    assetId = asset.id;
    const id = asset.playback_ids[0].id;
    paused = await waitForLadder(dataDir);
    signal(paused, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, 200));
    if (paused.length === 0 || !stopped(paused)) console.log('(the ladder could not be paused: the figures below include it)');
    const url = (p) => `${imageUrl}/${id}/${p}`;
    await timed(url('thumbnail.jpg?time=1.234&width=64'), 'miss'); // the first request resolves ffmpeg

    const full = times(SAMPLES, 1).map((t) => url(`thumbnail.jpg?time=${t}`));
    await series('thumbnail.jpg 1920x1080 at a time, cold', full, 'miss', 'under 300 ms');
    await series('thumbnail.jpg 1920x1080 at a time, cached', [...full, ...full, ...full, ...full], 'hit', 'under 20 ms');
    const small = times(SAMPLES, 3).map((t) => url(`thumbnail.webp?time=${t}&width=640`));
    await series('thumbnail.webp 640x360 at a time, cold', small, 'miss', 'under 300 ms');
    await series('thumbnail.webp 640x360 at a time, cached', [...small, ...small, ...small, ...small], 'hit', 'under 20 ms');
    const poster = await timed(url('thumbnail.webp'), 'miss');
    console.log(
      `${"Mux Player's poster (thumbnail.webp, the middle, 1920x1080), cold".padEnd(58)} ${ms(poster.ms)} (${(poster.bytes / 1024).toFixed(0)} KiB)${load()}`,
    );

    // a player asks for the VTT, then the sheet its cues name: making the VTT starts making that sheet
    const whole = await timed(url('storyboard.vtt'), undefined);
    const sheetAfter = await timed(url('storyboard.jpg'), undefined);
    console.log(
      `${'storyboard of the whole asset, cold: VTT, then its sheet'.padEnd(58)} VTT ${ms(whole.ms)}, sheet ${ms(sheetAfter.ms)} later (total ${ms(whole.ms + sheetAfter.ms)}; 50 tiles, ${(sheetAfter.bytes / 1024).toFixed(0)} KiB)${load()}`,
    );
    for (const span of ['asset_start_time=0&asset_end_time=300', 'asset_start_time=300&asset_end_time=600']) {
      const sheet = await timed(url(`storyboard.webp?${span}`), 'miss');
      console.log(
        `${`storyboard.webp of ${span.replace('&', ' ')}, cold, alone`.padEnd(58)} ${ms(sheet.ms)} (50 tiles, ${(sheet.bytes / 1024).toFixed(0)} KiB)${load()}`,
      );
    }
    await series('storyboard.vtt, cached', [url('storyboard.vtt'), url('storyboard.vtt'), url('storyboard.vtt')], undefined);

    const gifs = [12.5, 250.25, 480].map((start) => url(`animated.gif?start=${start}`));
    await series('animated.gif 320x180, 5 s at 15 fps, cold', gifs, 'miss');
  } finally {
    signal(paused, 'SIGCONT');
    if (assetId) await json('DELETE', `/video/v1/assets/${assetId}`);
    server.close();
  }
}

module.exports = { benchImages, prepareImagesSource };
