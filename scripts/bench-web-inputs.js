#!/usr/bin/env node
// Web input figures (`npm run bench -- web-inputs`, or `node scripts/bench-web-inputs.js` after `npm run build`): per
// resolution, the CPU and memory one capture job takes (its process groups: Xvfb, PulseAudio, ffmpeg, and Chromium's own)
// while it streams an animated page with sound, and the time from launch to the first frame at the RTMP receiver.
// The job is the web-inputs service's own (LocalProcessLauncher and the worker from the built code); the receiver is
// an ffmpeg RTMP listener standing in for the ingest. CPU is the group's user + system time over the wall time
// (1.0 = one core busy); memory is the group's summed resident memory, sampled each second (the peak is shown).
'use strict';
const http = require('node:http');
const path = require('node:path');
const { ROOT, tool, ffmpegPath, sleep, groupPids, sampleLoad, launchToReceiver } = require('./bench-support');

const SECONDS = Number(process.env.BENCH_WEB_INPUT_SECONDS ?? 20);
const FPS = Number(process.env.CAPTURE_FPS ?? 30);
const RESOLUTIONS = [
  [1280, 720],
  [1920, 1080],
];
const PAGE = `<!doctype html><html><body style="margin:0;overflow:hidden;background:#123">
<canvas id="c"></canvas><script>
  const c = document.getElementById('c'); c.width = innerWidth; c.height = innerHeight; const g = c.getContext('2d');
  const ctx = new AudioContext(); const o = ctx.createOscillator(); o.connect(ctx.destination); o.start();
  (function frame(t) {
    g.fillStyle = 'hsl(' + (t / 20 % 360) + ',70%,40%)'; g.fillRect(0, 0, c.width, c.height);
    g.fillStyle = '#fff'; g.font = '64px sans-serif'; g.fillText(new Date().toISOString(), 40 + (t / 5) % 400, c.height / 2);
    o.frequency.value = 300 + (t / 10) % 700;
    requestAnimationFrame(frame);
  })(0);
</script></body></html>`;

async function measure(launcher, ffmpeg, chromiumPath, pageUrl, width, height) {
  const jobId = `bench-${height}p`;
  const job = { jobId, url: pageUrl, width, height, fps: FPS, timeoutSeconds: SECONDS + 120, ffmpegPath: ffmpeg, chromiumPath, outboundAllow: 'loopback' };
  const { receiver, firstFrameSeconds } = await launchToReceiver(launcher, job, { ffmpeg, timeoutMs: 60_000 });
  try {
    await sleep(3000); // past the page's start
    const groups = launcher.processGroups(jobId); // the worker's, and Chromium's (playwright starts it detached)
    const { job: load } = await sampleLoad(SECONDS, { job: () => groups.flatMap(groupPids) });
    return { firstFrameSeconds, cpu: load.cpu, peakRss: load.peak };
  } finally {
    await launcher.stop(jobId);
    receiver.kill('SIGKILL');
  }
}

async function benchWebInputs() {
  const { LocalProcessLauncher } = require(path.join(ROOT, 'libs/capture/dist'));
  tool('capture.sh');
  const chromiumPath = tool('chromium.sh');
  const ffmpeg = ffmpegPath();
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const pageUrl = `http://127.0.0.1:${server.address().port}/`;
  const launcher = new LocalProcessLauncher();
  console.log(
    `\nweb inputs: one capture job (Xvfb, PulseAudio, Chromium, ffmpeg libx264 veryfast ${FPS} fps) streaming an animated page with sound, ${SECONDS} s each`,
  );
  console.log('resolution   first frame after launch   CPU (cores)   peak memory');
  try {
    for (const [width, height] of RESOLUTIONS) {
      const r = await measure(launcher, ffmpeg, chromiumPath, pageUrl, width, height);
      console.log(
        `${`${width}x${height}`.padEnd(12)} ${`${r.firstFrameSeconds.toFixed(2)} s`.padEnd(26)} ${r.cpu.toFixed(2).padEnd(13)} ${Math.round(r.peakRss)} MiB`,
      );
    }
  } finally {
    server.close();
  }
}

module.exports = { benchWebInputs };
if (require.main === module) {
  benchWebInputs().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
