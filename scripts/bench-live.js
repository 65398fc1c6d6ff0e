// Live figures for `npm run bench` (against the running embedded platform):
//   (a) glass-to-playlist latency per latency mode: for each segment, the time from the capture of
//       its last frame to the moment the live playlist on the stream's playback id lists it. The
//       encoder burns the wall-clock time of each frame's capture into the frame (a 24-bit barcode
//       of the milliseconds, top left); after the run each listed segment is fetched from the
//       playback host and its last frame decoded to read that time back;
//   (b) how many concurrent 720p streams one machine ingests in real time: N encoders push a cached
//       720p30 H.264/AAC file (stream copy, so the encoders cost little) and every stream's playlist
//       must keep up (each segment listed within 2 segment lengths of its capture).
// The 720p source is generated once and cached under .cache/bench-media (git-ignored).
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { barcodeFilter, readBarcodes } = require('../libs/testing/src/frame-barcode');
const { glassToGlass, launchChromium, MEASURE_S, servePlayer } = require('./bench-glass');

const { ROOT, ffmpegPath } = require('./bench-support');
const CACHE = path.join(ROOT, '.cache', 'bench-media');
const SEGMENT = { standard: 4, reduced: 2, low: 1 };
/** The latency modes `npm run bench -- glass [low|reduced|standard…]` measures: those named, or all. */
const glassModes = () => {
  const named = Object.keys(SEGMENT).filter((mode) => process.argv.includes(mode));
  return named.length > 0 ? named : Object.keys(SEGMENT);
};
/** Rounds of the concurrency figure, until one falls behind. */
const STREAM_COUNTS = [4, 8, 16, 32, 40, 48, 64, 96];

/** 60 s of 720p30 H.264 (GOP 1 s) + AAC, pushed with stream copy by the concurrency figure. */
function prepareLiveSource() {
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, '720p-60s-gop1.mp4');
  if (fs.existsSync(file)) return file;
  console.log('generating 720p-60s-gop1.mp4 (cached for later runs)…');
  execFileSync(ffmpegPath(), [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=30:duration=60',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=60',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '30',
    '-b:v',
    '3M',
    '-c:a',
    'aac',
    '-ac',
    '2',
    `${file}.part.mp4`,
  ]);
  fs.renameSync(`${file}.part.mp4`, file);
  return file;
}

const BARCODE = { bits: 24, block: 32 };
const BARCODE_WRAP = 2 ** BARCODE.bits;

/**
 * The frame's capture time burnt in: frames are stamped with the wall clock (setpts=RTCTIME, µs) as
 * they leave the test-pattern source, then the milliseconds mod 2^24 are a barcode along the top left
 * (libs/testing's frame-barcode), and timestamps restart at 0 for the encoder.
 */
const BURN_TIMESTAMP =
  '[0:v]settb=expr=1/1000000,setpts=RTCTIME[stamped];' +
  barcodeFilter({ input: '[stamped]', output: '[burnt]', value: 'floor(T*1000)', ...BARCODE }) +
  ';[burnt]setpts=PTS-STARTPTS[v]';

/** How long before `at` (ms since the epoch) a burnt time mod 2^24 was. */
const burntAge = (at, burnt) => ((((at % BARCODE_WRAP) - burnt) % BARCODE_WRAP) + BARCODE_WRAP) % BARCODE_WRAP;

function push(ffmpeg, rtmpUrl, source) {
  const input = source
    ? ['-re', '-i', source, '-c', 'copy']
    : [
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=1280x720:rate=30',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000',
        '-filter_complex',
        BURN_TIMESTAMP,
        '-map',
        '[v]',
        '-map',
        '1:a',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-g',
        '30',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-ac',
        '2',
      ];
  const child = spawn(ffmpeg, ['-v', 'error', ...input, '-f', 'flv', rtmpUrl], { stdio: 'ignore' });
  return { child, startedAt: Date.now(), stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGINT')))) };
}

/**
 * Watches a live playlist; `lateness` is per segment (listed − captured, in ms) with the capture
 * time estimated from the push start and media time; `listed` keeps each segment's URL and when it
 * was first listed, for reading its burnt-in capture time afterwards.
 */
function watch(streamUrl, playbackId, startedAt) {
  const seen = new Set();
  const lateness = [];
  const listed = [];
  let variant;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        if (!variant) {
          const master = await fetch(`${streamUrl}/${playbackId}.m3u8`);
          if (master.status === 200) variant = (await master.text()).split('\n').find((l) => l.startsWith(`${playbackId}/`));
        }
        if (variant) {
          const text = await (await fetch(`${streamUrl}/${variant}`)).text();
          const now = Date.now();
          let media = 0;
          for (const line of text.split('\n')) {
            if (line.startsWith('#EXTINF:')) media += Number.parseFloat(line.slice(8));
            else if (line && !line.startsWith('#') && !seen.has(line)) {
              seen.add(line);
              lateness.push(now - (startedAt + media * 1000));
              listed.push({ url: new URL(line, `${streamUrl}/${variant}`).toString(), at: now });
            }
          }
        }
      } catch {
        // not there yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { lateness, listed, stop: async () => ((stopped = true), await loop) };
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

/**
 * Glass to glass in a real player, per latency mode: hls.js in Chromium with its default settings
 * (lowLatencyMode is on by default: `low` is LL-HLS, played from parts), `npm run bench -- glass` alone.
 */
async function benchGlass({ json, streamUrl, rtmpPort }) {
  const ffmpeg = ffmpegPath();
  const rtmp = (key) => `rtmp://127.0.0.1:${rtmpPort}/app/${key}`;
  const create = async (mode) =>
    (await (await json('POST', '/video/v1/live-streams', { playback_policy: ['public'], latency_mode: mode, reconnect_window: 0 })).json()).data;
  const player = await servePlayer();
  const browser = await launchChromium();
  try {
    for (const mode of glassModes()) {
      const stream = await create(mode);
      const encoder = push(ffmpeg, rtmp(stream.stream_key));
      try {
        const ages = await glassToGlass(browser, player.port, `${streamUrl}/${stream.playback_ids[0].id}.m3u8`, BARCODE, burntAge);
        const sorted = [...ages].sort((a, b) => a - b);
        const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
        console.log(
          `glass-to-glass, ${mode.padEnd(8)} (${SEGMENT[mode]} s segments)  median ${(median(ages) / 1000).toFixed(2)} s  (p95 ${(p95 / 1000).toFixed(2)} s over ${ages.length} frames shown by hls.js in Chromium in ${MEASURE_S} s)`,
        );
      } finally {
        await encoder.stop();
      }
    }
  } finally {
    await browser.close();
    await player.close();
  }
}

async function benchLive({ json, streamUrl, rtmpPort }, source) {
  const ffmpeg = ffmpegPath();
  const rtmp = (key) => `rtmp://127.0.0.1:${rtmpPort}/app/${key}`;
  const create = async (mode) =>
    (await (await json('POST', '/video/v1/live-streams', { playback_policy: ['public'], latency_mode: mode, reconnect_window: 0 })).json()).data;

  console.log('\nLive (RTMP push of a 720p30 test pattern encoded in real time, 1 s GOP, capture time burnt into each frame; HLS stream-copied)');
  for (const mode of ['standard', 'reduced', 'low']) {
    const stream = await create(mode);
    const encoder = push(ffmpeg, rtmp(stream.stream_key));
    const watcher = watch(streamUrl, stream.playback_ids[0].id, encoder.startedAt);
    await new Promise((r) => setTimeout(r, 20_000));
    await encoder.stop();
    await watcher.stop();
    // the first segment also waits for the session to start; the last may be cut by the stop
    const late = [];
    for (const { url, at } of watcher.listed.slice(1, -1)) {
      const times = await readBarcodes(ffmpeg, url, BARCODE);
      late.push(burntAge(at, times[times.length - 1]));
    }
    console.log(
      `glass-to-playlist, ${mode.padEnd(8)} (${SEGMENT[mode]} s segments)  median ${(median(late) / 1000).toFixed(2)} s  (max ${(Math.max(...late) / 1000).toFixed(2)} s over ${late.length} segments; burnt-in capture time of each segment's last frame → first listed)`,
    );
  }

  await benchGlass({ json, streamUrl, rtmpPort });

  let best = 0;
  for (const n of STREAM_COUNTS) {
    const streams = await Promise.all(Array.from({ length: n }, () => create('reduced')));
    const encoders = streams.map((s) => push(ffmpeg, rtmp(s.stream_key), source));
    const watchers = streams.map((s, i) => watch(streamUrl, s.playback_ids[0].id, encoders[i].startedAt));
    await new Promise((r) => setTimeout(r, 20_000));
    await Promise.all(encoders.map((e) => e.stop()));
    await Promise.all(watchers.map((w) => w.stop()));
    const kept = watchers.every((w) => w.lateness.length >= 5 && w.lateness.slice(1).every((ms) => ms < 2 * SEGMENT.reduced * 1000 + 1000));
    const worst = Math.max(...watchers.flatMap((w) => w.lateness.slice(1)));
    console.log(
      `${String(n).padStart(2)} concurrent 720p streams: ${kept ? 'kept up' : 'fell behind'} (worst segment listed ${(worst / 1000).toFixed(2)} s after capture)`,
    );
    if (!kept) break;
    best = n;
    await new Promise((r) => setTimeout(r, 3000)); // let the recordings close before the next round
  }
  console.log(`concurrent 720p streams ingested in real time: ${best}${best === STREAM_COUNTS[STREAM_COUNTS.length - 1] ? ' or more' : ''}`);
}

module.exports = { benchGlass, benchLive, prepareLiveSource, median, push, burntAge, BARCODE };
