// Static MP4 renditions for `npm run bench` (called by scripts/bench.js against its running platform, after
// the media part, with the same cached 60 s 1080p30 H.264/AAC file): an asset with mp4_support standard,
// timed from `ready` (playable) to `static_renditions.status` ready, and from the moment the master lists
// the whole ladder (the renditions wait for it, then remux its encodes), against one plain ffmpeg command
// making the same three files (low.mp4 640x360, medium.mp4 960x540, high.mp4 1920x1080, faststart) from
// the source file.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serve } = require('./bench-assets');

async function poll(check, timeoutMs, everyMs = 50) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The same three files as mp4_support standard makes of a 1080p source, as one plain ffmpeg command (one decode). */
function plainStaticRenditions(ffmpeg, input) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-plain-mp4-'));
  const files = [
    ['low.mp4', 640, 360, 800_000],
    ['medium.mp4', 960, 540, 2_000_000],
    ['high.mp4', 1920, 1080, 5_000_000],
  ];
  const split = `[0:v]split=${files.length}${files.map((_, i) => `[s${i}]`).join('')}`;
  const scales = files.map(([, w, h], i) => `[s${i}]scale=${w}:${h}[v${i}]`);
  const args = ['-v', 'error', '-y', '-i', input, '-filter_complex', [split, ...scales].join(';')];
  files.forEach(([name, , , rate], i) => {
    // the ladder's encoder settings: High profile, capped VBR (maxrate 1.07x, buffer 1.5x), AAC 128k stereo
    args.push('-map', `[v${i}]`, '-map', '0:a:0', '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high');
    args.push('-b:v', String(rate), '-maxrate', String(Math.round(rate * 1.07)), '-bufsize', String(rate * 1.5));
    args.push('-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-movflags', '+faststart', path.join(out, name));
  });
  const t0 = performance.now();
  const result = spawnSync(ffmpeg, args, { stdio: 'inherit' });
  const ms = performance.now() - t0;
  fs.rmSync(out, { recursive: true, force: true });
  if (result.status !== 0) throw new Error('plain ffmpeg static renditions failed');
  return ms;
}

async function benchStaticRenditions({ json, streamUrl }, { ffmpeg, files }) {
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const file = files[60];
  console.log('\nStatic MP4 renditions (mp4_support standard of the 60 s 1080p30 file)');
  const server = await serve(file);
  try {
    const t0 = performance.now();
    const created = (
      await (await json('POST', '/video/v1/assets', { inputs: [{ url: server.url }], playback_policies: ['public'], mp4_support: 'standard' })).json()
    ).data;
    const playbackId = created.playback_ids[0].id;
    const asset = () => json('GET', `/video/v1/assets/${created.id}`).then(async (r) => (await r.json()).data);
    await poll(async () => (await asset()).status === 'ready', 10 * 60_000);
    const readyMs = performance.now() - t0;
    const variants = async () => ((await (await fetch(`${streamUrl}/${playbackId}.m3u8`)).text()).match(/#EXT-X-STREAM-INF/g) ?? []).length;
    const first = await variants();
    let ladderMs;
    const done = await poll(
      async () => {
        if (ladderMs === undefined && (await variants()) > first) ladderMs = performance.now() - t0;
        const a = await asset();
        return a.static_renditions?.status !== 'preparing' ? a : undefined;
      },
      60 * 60_000,
      100,
    );
    const staticMs = performance.now() - t0;
    if (done.static_renditions.status !== 'ready') throw new Error(`static renditions ended ${done.static_renditions.status}`);
    ladderMs ??= staticMs;
    const names = done.static_renditions.files.map((f) => `${f.name} ${f.width}x${f.height}`).join(', ');
    await json('DELETE', `/video/v1/assets/${created.id}`);
    const plain = plainStaticRenditions(ffmpeg, file);
    console.log(`files: ${names}`);
    console.log(
      `static renditions ready ${s(staticMs - readyMs)} after ready (ratio ${((staticMs - readyMs) / plain).toFixed(2)} to plain ffmpeg), ` +
        `${s(staticMs - ladderMs)} after the ladder was stored (ratio ${((staticMs - ladderMs) / plain).toFixed(2)}); plain ffmpeg making the same files ${s(plain)}`,
    );
  } finally {
    server.close();
  }
}

/** The 60 s source alone (`npm run bench -- mp4` runs only this part), generated once like the media part's. */
function prepareStaticRenditionsSource() {
  const { ffmpegPath } = require('./bench-support');
  const { sourceFile } = require('./bench-media');
  const ffmpeg = ffmpegPath();
  return { ffmpeg, files: { 60: sourceFile(ffmpeg, 60) } };
}

module.exports = { benchStaticRenditions, prepareStaticRenditionsSource };
