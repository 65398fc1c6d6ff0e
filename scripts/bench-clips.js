// Clip figures for `npm run bench` (called by scripts/bench.js against its running platform): a 10 s clip
// of a 10 min 1080p30 H.264/AAC asset (bench-media's cached file, 2 s GOPs), from POST /video/v1/assets to
// `ready`, at three places in the source. The source's own ladder encode (both cores, minutes for 10 min
// of 1080p) is paused (SIGSTOP) while the clips are timed, so they measure the clip itself; one more clip
// is timed with that encode running, as a busy worker would make it.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const CLIP_SECONDS = 10;
const STARTS = [100, 300.5, 451.25];

function serve(file) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/${path.basename(file)}`, close: () => server.close() })),
  );
}

/** CPU seconds the platform process and its reaped children (ffmpeg, ffprobe) have used: utime, stime, cutime, cstime. */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

async function readyAfter(json, body) {
  const t0 = performance.now();
  const { data } = await (await json('POST', '/video/v1/assets', body)).json();
  for (;;) {
    const asset = (await (await json('GET', `/video/v1/assets/${data.id}`)).json()).data;
    if (asset.status !== 'preparing') {
      if (asset.status !== 'ready') throw new Error(`asset ${data.id} ended ${asset.status}: ${JSON.stringify(asset.errors)}`);
      return { asset, ms: performance.now() - t0 };
    }
    if (performance.now() - t0 > 10 * 60_000) throw new Error(`asset ${data.id} not ready after 10 minutes`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Pids of the ladder encodes (libx264 ffmpeg) working under the bench's DATA_DIR. */
function ladderEncodes(dataDir) {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  return lines.filter((l) => /ffmpeg/.test(l) && l.includes('libx264') && l.includes(dataDir)).map((l) => Number(l.trim().split(/\s+/)[0]));
}

async function waitForLadder(dataDir) {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const pids = ladderEncodes(dataDir);
    if (pids.length > 0) return pids;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
}

const signal = (pids, name) => pids.forEach((pid) => process.kill(pid, name));
/** Whether every process is stopped (state T in /proc/<pid>/stat). */
const stopped = (pids) => pids.every((pid) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('T'));
/** The machine's load average: figures taken beside other work are not comparable. */
const load = () => `  [load ${os.loadavg()[0].toFixed(1)}]`;

async function benchClips({ json, dataDir, pid }, { files }) {
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log('\nClips (a 10 s clip of the 10 min 1080p30 H.264/AAC asset: smart cut from its stored source rendition)');
  const server = await serve(files[600]);
  const made = [];
  let paused = [];
  try {
    const source = await readyAfter(json, { inputs: [{ url: server.url }], playback_policies: ['public'] });
    made.push(source.asset.id);
    console.log(`source ready (playable) in ${s(source.ms)}, ${source.asset.duration.toFixed(1)} s long`);
    paused = await waitForLadder(dataDir);
    signal(paused, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, 200));
    if (paused.length === 0 || !stopped(paused)) console.log('(the source ladder could not be paused: the figures below include it)');
    const runs = [];
    const cpu = [];
    for (const start of STARTS) {
      await new Promise((r) => setTimeout(r, 1000)); // the previous clip's stray work (its remux's children) done
      const cpuBefore = cpuSeconds(pid);
      const clip = await readyAfter(json, {
        inputs: [{ url: `mux://assets/${source.asset.id}`, start_time: start, end_time: start + CLIP_SECONDS }],
        playback_policies: ['public'],
      });
      made.push(clip.asset.id);
      if (Math.abs(clip.asset.duration - CLIP_SECONDS) > 0.1) throw new Error(`clip ${clip.asset.id} lasts ${clip.asset.duration} s`);
      runs.push(clip.ms);
      cpu.push(cpuSeconds(pid) - cpuBefore);
    }
    const sorted = [...runs].sort((a, b) => a - b);
    console.log(
      `create → ready, 10 s clip (source ladder paused)   median ${s(sorted[1])}  (runs at ${STARTS.join(', ')} s: ${runs.map(s).join(', ')}; target under 2 s)${load()}`,
    );
    console.log(`CPU time of the platform and its ffmpeg per clip (create → ready)   ${cpu.map((c) => `${c.toFixed(2)} s`).join(', ')}`);
    signal(paused, 'SIGCONT');
    paused = [];
    const busy = await readyAfter(json, {
      inputs: [{ url: `mux://assets/${source.asset.id}`, start_time: 200.4, end_time: 200.4 + CLIP_SECONDS }],
      playback_policies: ['public'],
    });
    made.push(busy.asset.id);
    console.log(`create → ready, 10 s clip while the source's ladder encodes on both cores   ${s(busy.ms)}${load()}`);
  } finally {
    signal(paused, 'SIGCONT');
    for (const id of made.reverse()) await json('DELETE', `/video/v1/assets/${id}`);
    server.close();
  }
}

module.exports = { benchClips };
