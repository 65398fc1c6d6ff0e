// Clip figures for `npm run bench` (called by scripts/bench.js against its running platform): a 10 s clip
// of a 10 min 1080p30 H.264/AAC asset (bench-media's cached file, 2 s GOPs), from POST /video/v1/assets to
// `ready`, at three places in the source. The source's own ladder encode (both cores, minutes for 10 min
// of 1080p) is paused (SIGSTOP) while the clips are timed, so they measure the clip itself; one more clip
// is timed with that encode running, as a busy worker would make it.
'use strict';

const { load, readyAfter, serve, signal, stopped, waitForLadder } = require('./bench-assets');
const { cpuSecondsWithChildren } = require('./bench-support');

const CLIP_SECONDS = 10;
const STARTS = [100, 300.5, 451.25];

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
      const cpuBefore = cpuSecondsWithChildren(pid);
      const clip = await readyAfter(json, {
        inputs: [{ url: `mux://assets/${source.asset.id}`, start_time: start, end_time: start + CLIP_SECONDS }],
        playback_policies: ['public'],
      });
      made.push(clip.asset.id);
      if (Math.abs(clip.asset.duration - CLIP_SECONDS) > 0.1) throw new Error(`clip ${clip.asset.id} lasts ${clip.asset.duration} s`);
      runs.push(clip.ms);
      cpu.push(cpuSecondsWithChildren(pid) - cpuBefore);
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
