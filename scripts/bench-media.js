// Media figures for `npm run bench` (called by scripts/bench.js against its running platform):
//   (a) time from POST /video/v1/assets to `ready` (playable) for 60 s and 10 min 1080p30 H.264/AAC
//       files served over local HTTP (standard inputs: playable from the remuxed source rendition);
//   (b) full-ladder encoding speed: the worker's ladder stage (from `ready` until the master lists the
//       whole ladder, uploads included) against one plain ffmpeg command producing the same ladder.
// Source files are generated once with ffmpeg and cached under .cache/bench-media (git-ignored).
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serve } = require('./bench-assets');

const { ROOT, ffmpegPath } = require('./bench-support');
const CACHE = path.join(ROOT, '.cache', 'bench-media');

/** A 1080p30 H.264 (GOP 2 s) + AAC stereo MP4 with the moov atom first, as a web upload usually is. */
function sourceFile(ffmpeg, seconds) {
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `1080p-${seconds}s.mp4`);
  if (fs.existsSync(file)) return file;
  console.log(`generating ${path.basename(file)} (cached for later runs)…`);
  const tmp = `${file}.part.mp4`;
  execFileSync(
    ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1920x1080:rate=30:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '60',
      '-b:v',
      '6M',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      tmp,
    ],
    { stdio: 'inherit' },
  );
  fs.renameSync(tmp, file);
  return file;
}

const variantCount = (master) => (master.match(/#EXT-X-STREAM-INF/g) ?? []).length;

async function poll(check, timeoutMs, everyMs = 20) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** One asset through the platform; returns ms to ready and, when asked, ms to the full ladder. */
async function ingest({ json, streamUrl }, url, { waitForLadder }) {
  const t0 = performance.now();
  const created = await (await json('POST', '/video/v1/assets', { inputs: [{ url }], playback_policies: ['public'] })).json();
  const {
    id,
    playback_ids: [{ id: playbackId }],
  } = created.data;
  const asset = await poll(async () => {
    const a = (await (await json('GET', `/video/v1/assets/${id}`)).json()).data;
    return a.status === 'preparing' ? undefined : a;
  }, 30 * 60_000);
  const readyMs = performance.now() - t0;
  if (asset.status !== 'ready') throw new Error(`asset ${id} ended ${asset.status}: ${JSON.stringify(asset.errors)}`);
  const playable = await fetch(`${streamUrl}/${playbackId}.m3u8`);
  if (playable.status !== 200) throw new Error(`ready asset ${id} does not play (${playable.status})`);
  const firstVariants = variantCount(await playable.text());
  let ladderMs;
  let ladderVariants;
  if (waitForLadder) {
    ladderVariants = await poll(
      async () => {
        const n = variantCount(await (await fetch(`${streamUrl}/${playbackId}.m3u8`)).text());
        return n > firstVariants ? n : undefined;
      },
      60 * 60_000,
      250,
    );
    ladderMs = performance.now() - t0 - readyMs;
  }
  await json('DELETE', `/video/v1/assets/${id}`);
  return { readyMs, firstVariants, ladderMs, ladderVariants };
}

/** The same ladder as the worker's for a 1080p source, as one hand-written ffmpeg command. */
function plainLadder(ffmpeg, input) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-plain-ladder-'));
  const rungs = [
    [1920, 1080, 5_000_000],
    [1280, 720, 3_000_000],
    [960, 540, 2_000_000],
    [640, 360, 800_000],
    [480, 270, 400_000],
  ];
  const split = `[0:v]split=${rungs.length}${rungs.map((_, i) => `[s${i}]`).join('')}`;
  const scales = rungs.map(([w, h], i) => `[s${i}]scale=${w}:${h}[v${i}]`);
  const args = ['-v', 'error', '-y', '-i', input, '-filter_complex', [split, ...scales].join(';')];
  rungs.forEach((_, i) => args.push('-map', `[v${i}]`, '-map', '0:a:0'));
  // The same outputs as the worker's: High profile, 4 s closed GOPs, capped VBR (maxrate 1.07x, buffer 1.5x).
  args.push('-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-g', '120', '-keyint_min', '120', '-sc_threshold', '0');
  rungs.forEach(([, , b], i) => args.push(`-b:v:${i}`, String(b), `-maxrate:v:${i}`, String(Math.round(b * 1.07)), `-bufsize:v:${i}`, String(b * 1.5)));
  args.push(
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-f',
    'hls',
    '-hls_time',
    '4',
    '-hls_playlist_type',
    'vod',
    '-hls_segment_filename',
    `${out}/%v/segment_%03d.ts`,
    '-master_pl_name',
    'master.m3u8',
    '-var_stream_map',
    rungs.map((_, i) => `v:${i},a:${i}`).join(' '),
    `${out}/%v/index.m3u8`,
  );
  const t0 = performance.now();
  const result = spawnSync(ffmpeg, args, { stdio: 'inherit' });
  const ms = performance.now() - t0;
  fs.rmSync(out, { recursive: true, force: true });
  if (result.status !== 0) throw new Error('plain ffmpeg ladder failed');
  return ms;
}

/**
 * Generates (or finds cached) the source files. Called before the platform starts: generating blocks
 * the event loop for minutes, and the gateway would close the idle keep-alive sockets meanwhile.
 */
function prepareMediaSources() {
  const ffmpeg = ffmpegPath();
  return { ffmpeg, files: { 60: sourceFile(ffmpeg, 60), 600: sourceFile(ffmpeg, 600) } };
}

async function benchMedia(platform, { ffmpeg, files }) {
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log('\nOn-demand media (standard 1080p30 H.264/AAC MP4 over local HTTP)');
  for (const seconds of [60, 600]) {
    const server = await serve(files[seconds]);
    try {
      const runs = [];
      const repeats = seconds === 60 ? 3 : 1;
      for (let i = 0; i < repeats; i++) runs.push(await ingest(platform, server.url, { waitForLadder: false }));
      const ready = runs.map((r) => r.readyMs).sort((a, b) => a - b);
      console.log(
        `create → ready (playable), ${String(seconds).padStart(3)} s file   median ${s(ready[Math.floor(ready.length / 2)])}  (runs: ${ready.map(s).join(', ')}; ${runs[0].firstVariants} variant at ready)`,
      );
    } finally {
      server.close();
    }
  }
  const file = files[60];
  const server = await serve(file);
  try {
    const worker = await ingest(platform, server.url, { waitForLadder: true });
    const plain = plainLadder(ffmpeg, file);
    console.log(
      `full ladder, 60 s file: worker ${s(worker.ladderMs)} (${worker.ladderVariants} variants, upload included), plain ffmpeg ${s(plain)}, ratio ${(worker.ladderMs / plain).toFixed(2)}`,
    );
  } finally {
    server.close();
  }
}

module.exports = { benchMedia, prepareMediaSources, sourceFile };
