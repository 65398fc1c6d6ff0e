#!/usr/bin/env node
// Live ladder figures (`npm run bench -- ladder`, or `node scripts/bench-ladder.js` after `npm run build`): the CPU one
// live session's ffmpeg takes per LIVE_LADDER setting (passthrough, full) for a 720p30 and a 1080p30 H.264/AAC encoder,
// and how many 1080p full-ladder sessions this machine keeps in real time. The arguments are the live service's own
// (packagerArgs and planLiveLadder from the built code); the input is a cached file read at its native rate (-re), as
// an encoder's stream arrives. CPU is the ffmpeg process's user + system time over the wall time (1.0 = one core busy).
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, TICKS, ffmpegPath, ticksOf } = require('./bench-support');
const CACHE = path.join(ROOT, '.cache', 'bench-media');
const DIST = path.join(ROOT, 'services/live/dist/ingest/media');
const SECONDS = Number(process.env.BENCH_LADDER_SECONDS ?? 20);

/** 40 s of WxH 30 fps H.264 (GOP 2 s, as OBS's default) + AAC, cached. */
function source(width, height) {
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `${height}p-40s-gop2.ts`);
  if (fs.existsSync(file)) return file;
  console.log(`generating ${path.basename(file)} (cached for later runs)…`);
  execFileSync(ffmpegPath(), [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=30:duration=40`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=40'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-b:v', height >= 1080 ? '5M' : '3M', '-g', '60', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '128k', '-f', 'mpegts', file],
  ]);
  return file;
}

/** One session's ffmpeg for SECONDS: its CPU (cores) and speed (media seconds per wall second). */
function session(file, mode, height, workDir) {
  const { planLiveLadder } = require(path.join(DIST, 'live-ladder.js'));
  const { packagerArgs } = require(path.join(DIST, 'packager-args.js'));
  const width = Math.round((height * 16) / 9);
  const rungs = planLiveLadder(mode, { width, height }, false);
  const input = {
    args: ['-re', '-i', file],
    video: '0:v',
    audio: '0:a',
    copyVideo: true,
    copyAudio: true,
    keyFrames: 'source',
    tune: 'zerolatency',
    rateControl: 'bitrate',
    audioBitrate: '128k',
  };
  for (const rung of rungs.slice(1)) fs.mkdirSync(path.join(workDir, rung.folder), { recursive: true });
  const args = packagerArgs({ input, rungs, segmentSeconds: 2, workDir, segmentPrefix: 's1_' });
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), ['-progress', 'pipe:1', '-nostats', ...args, '-t', String(SECONDS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let progress = '';
    let errors = '';
    child.stdout.on('data', (chunk) => (progress += chunk));
    child.stderr.on('data', (chunk) => (errors += chunk));
    const started = performance.now();
    let ticks = 0;
    // the last sample before the exit (a process gone reads 0)
    const sampler = setInterval(() => (ticks = Math.max(ticks, ticksOf(child.pid))), 250);
    child.on('exit', (code) => {
      clearInterval(sampler);
      const wall = (performance.now() - started) / 1000;
      const outTime = [...progress.matchAll(/out_time_us=(\d+)/g)].map((m) => Number(m[1])).pop() ?? 0;
      if (code !== 0) return reject(new Error(`ffmpeg exited ${code}: ${errors.slice(-400)}`));
      resolve({ rungs: rungs.length, cores: ticks / TICKS / wall, speed: outTime / 1e6 / wall });
    });
  });
}

async function benchLadder() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-ladder-'));
  try {
    const sources = { 720: source(1280, 720), 1080: source(1920, 1080) };
    console.log(`\nLive ladder (the live service's packagerArgs, ${os.cpus().length} cores, ${SECONDS} s sessions read at the encoder's rate)`);
    let n = 0;
    for (const height of [720, 1080]) {
      for (const mode of ['passthrough', 'full']) {
        const workDir = path.join(dir, `w${n++}`);
        fs.mkdirSync(workDir);
        const r = await session(sources[height], mode, height, workDir);
        console.log(`  ${height}p30 ${mode.padEnd(11)} ${r.rungs} rung(s): CPU ${r.cores.toFixed(2)} cores, speed ${r.speed.toFixed(2)}x`);
      }
    }
    // concurrent 1080p full-ladder sessions until one falls behind real time
    let sustained = 0;
    for (let count = 1; count <= 8; count++) {
      const runs = await Promise.all(
        Array.from({ length: count }, (_, i) => {
          const workDir = path.join(dir, `c${count}-${i}`);
          fs.mkdirSync(workDir);
          return session(sources[1080], 'full', 1080, workDir);
        }),
      );
      const slowest = Math.min(...runs.map((r) => r.speed));
      console.log(
        `  ${count} concurrent 1080p full ladders: slowest speed ${slowest.toFixed(2)}x, CPU ${runs.reduce((s, r) => s + r.cores, 0).toFixed(2)} cores`,
      );
      if (slowest < 0.98) break;
      sustained = count;
    }
    console.log(`  1080p full-ladder sessions kept in real time: ${sustained}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { benchLadder };

if (require.main === module) {
  benchLadder().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
