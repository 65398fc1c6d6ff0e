#!/usr/bin/env node
// Spaces figures (`npm run bench -- spaces [2,4,6,8]`, or `node scripts/bench-spaces.js` after `npm run build`):
// the participants this machine carries in one space, and one broadcast beside them.
//   - The spaces RealtimeServer (werift SFU, built code) runs in this process with test tokens `space:participant[:hidden]`:
//     this process's CPU is the SFU's (the bench's own polling is small beside it).
//   - N participants (BENCH_SPACES_PARTICIPANTS, default 2,4,6,8) are pages of one headless Chromium, each publishing a
//     320x180 canvas at 15 fps (a colour and a moving square) and Opus (one a tone). Per N: opening → every page decoding
//     every other's colour, the frame rate each page receives of each other (<video> getVideoPlaybackQuality over
//     BENCH_SPACES_SECONDS, 10 s), the CPU and memory of the SFU and of Chromium (its whole process tree).
//   - Beside 4 participants: a broadcast compositor as a real capture job (LocalProcessLauncher from libs/capture/dist)
//     loading /spaces/compositor?layout=gallery at 1280x720, to an ffmpeg RTMP listener: launch → first frame, the job's
//     CPU and peak memory over BENCH_SPACES_BROADCAST_SECONDS (20 s; its process groups, Chromium's included, as
//     bench-web-inputs counts them), and the 4 tile centres of a received frame against the participants' colours.
// CPU is user + system time over the wall time (1.0 = one core busy); memory is resident memory summed over the
// processes, sampled each second (Chromium's shared pages count once per process: an upper bound).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, tool, ffmpegPath, sleep, waitFor, freePort, groupPids, treePids, childrenOf, sampleLoad, launchToReceiver } = require('./bench-support');

const COUNTS = (process.env.BENCH_SPACES_PARTICIPANTS ?? process.argv.find((a) => /^\d+(,\d+)*$/.test(a)) ?? '2,4,6,8').split(',').map(Number);
const RATE_SECONDS = Number(process.env.BENCH_SPACES_SECONDS ?? 10);
const BROADCAST_SECONDS = Number(process.env.BENCH_SPACES_BROADCAST_SECONDS ?? 20);
const FPS = Number(process.env.CAPTURE_FPS ?? 30);
const [WIDTH, HEIGHT] = [1280, 720];
const DECODE_TIMEOUT_MS = 120_000;
const COLOURS = ['ff0000', '00ff00', '0000ff', 'ffff00', 'ff00ff', '00ffff', 'ffffff', 'ff8000', '8000ff', '008080'];
const colourOf = (id) => [0, 2, 4].map((i) => parseInt(COLOURS[(Number(id.slice(1)) - 1) % COLOURS.length].slice(i, i + 2), 16));
const near = (actual, expected) => !!actual && expected.every((value, i) => Math.abs(actual[i] - value) <= 60);

// The spaces service's test participant (added as a module to a page of the server's origin) and its Chromium flags,
// as the realtime int-spec and the e2e load them.
const TESTING = path.join(ROOT, 'services/spaces/src/realtime/testing');
const TEST_PARTICIPANT = fs.readFileSync(path.join(TESTING, 'test-participant.mjs'), 'utf8');
const CHROMIUM_ARGS = require(path.join(TESTING, 'chromium-args.json')).args;

/** N pages of `space` publishing, opened at once; resolves once every page decodes every other's colour (or at the timeout). */
async function openParticipants(browser, base, space, n) {
  const ids = Array.from({ length: n }, (_, i) => `p${i + 1}`);
  const openedAt = performance.now();
  const pages = await Promise.all(
    ids.map(async (id, i) => {
      const page = await browser.newPage();
      await page.goto(`${base}/spaces/client.js`);
      await page.addScriptTag({ type: 'module', content: TEST_PARTICIPANT });
      await page.waitForFunction('window.testParticipantReady === true');
      const participant = { token: `${space}:${id}`, colour: colourOf(id), tone: i === 0, width: 320, height: 180, movingSquare: true };
      await page.evaluate(`window.startParticipant(${JSON.stringify(participant)})`);
      return page;
    }),
  );
  for (;;) {
    const sampled = await Promise.all(pages.map((page) => page.evaluate('window.sampleVideos()')));
    const decoded = sampled.reduce((sum, colours, i) => sum + ids.filter((id, j) => i !== j && near(colours[id], colourOf(id))).length, 0);
    const seconds = (performance.now() - openedAt) / 1000;
    if (decoded === n * (n - 1) || seconds * 1000 > DECODE_TIMEOUT_MS)
      return { ids, pages, decoded, decodedAfter: decoded === n * (n - 1) ? seconds : undefined };
    await sleep(250);
  }
}

/** CPU (cores) and peak memory (MiB) over `seconds`: of this process (the SFU), and of each set of processes. */
async function sample(seconds, sets) {
  const { self: sfu, ...figures } = await sampleLoad(seconds, sets);
  return { sfu, ...figures };
}

/** The RGB colours of a PNG at the given points (ffmpeg decodes it). */
function pngColours(ffmpeg, file, points) {
  const raw = execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 64 << 20 });
  return points.map(([x, y]) => [...raw.subarray((y * WIDTH + x) * 3, (y * WIDTH + x) * 3 + 3)]);
}

async function measureParticipants(context, n) {
  const { browser, base, server, browserPids } = context;
  const space = `space-${n}`;
  const { ids, pages, decoded, decodedAfter } = await openParticipants(browser, base, space, n);
  await sleep(2000); // past the start of the streams
  const framesBefore = await Promise.all(pages.map((page) => page.evaluate('window.framesDecoded()')));
  const startedAt = performance.now();
  const figures = await sample(RATE_SECONDS, { chromium: browserPids });
  const framesAfter = await Promise.all(pages.map((page) => page.evaluate('window.framesDecoded()')));
  const seconds = (performance.now() - startedAt) / 1000;
  const rates = framesAfter.flatMap((after, i) => ids.filter((_, j) => i !== j).map((id) => ((after[id] ?? 0) - (framesBefore[i][id] ?? 0)) / seconds));
  const dropped = n - server.visibleCount(space); // ended by the server meanwhile (media lost for longer than the grace)
  await Promise.all(pages.map((page) => page.close()));
  await waitFor(`${space} empty`, () => server.visibleCount(space) === 0 || undefined, 30_000);
  return { n, decoded, decodedAfter, dropped, meanFps: rates.reduce((a, b) => a + b, 0) / rates.length, minFps: Math.min(...rates), ...figures };
}

async function measureBroadcast(context) {
  const { browser, base, server, browserPids, chromiumPath, ffmpeg, tmp } = context;
  const { LocalProcessLauncher } = require(path.join(ROOT, 'libs/capture/dist'));
  const space = 'space-broadcast';
  const { pages } = await openParticipants(browser, base, space, 4);
  const frameFile = path.join(tmp, 'frame.png');
  const launcher = new LocalProcessLauncher();
  const jobId = 'bench-broadcast';
  let receiver;
  try {
    const url = `${base}/spaces/compositor?token=${encodeURIComponent(`${space}:compositor:hidden`)}&layout=gallery&width=${WIDTH}&height=${HEIGHT}`;
    const job = {
      jobId,
      url,
      width: WIDTH,
      height: HEIGHT,
      fps: FPS,
      timeoutSeconds: BROADCAST_SECONDS + 180,
      ffmpegPath: ffmpeg,
      chromiumPath,
      outboundAllow: 'loopback',
      trustedOrigins: [new URL(base).origin],
    };
    const started = await launchToReceiver(launcher, job, { ffmpeg, outputs: ['-an', '-vf', 'fps=1', '-update', '1', frameFile] });
    receiver = started.receiver;
    await sleep(3000); // past the page's start
    const figures = await sample(BROADCAST_SECONDS, { job: () => launcher.processGroups(jobId).flatMap(groupPids), chromium: browserPids });
    // gallery of 4 at 1280x720: a 2x2 grid of 640x360 tiles in join order
    const order = server
      .participants(space)
      .filter((p) => !p.hidden)
      .map((p) => p.id);
    const centres = [
      [320, 180],
      [960, 180],
      [320, 540],
      [960, 540],
    ];
    const colours = pngColours(ffmpeg, frameFile, centres);
    const tiles = colours.filter((colour, i) => near(colour, colourOf(order[i]))).length;
    return { firstFrameSeconds: started.firstFrameSeconds, tiles, colours, ...figures };
  } finally {
    await launcher.close();
    receiver?.kill('SIGKILL');
    await Promise.all(pages.map((page) => page.close()));
  }
}

async function benchSpaces() {
  const { RealtimeServer } = require(path.join(ROOT, 'services/spaces/dist/realtime'));
  const { verifyTestToken } = require(path.join(ROOT, 'services/spaces/dist/realtime/testing/test-tokens'));
  const { chromium } = require('playwright-core');
  tool('capture.sh');
  const chromiumPath = tool('chromium.sh');
  const ffmpeg = ffmpegPath();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-spaces-'));
  const server = new RealtimeServer({ host: '127.0.0.1', port: await freePort(), verifyToken: verifyTestToken }); // the default 30 s leave grace
  const { port } = await server.listen();
  const base = `http://127.0.0.1:${port}`;
  const before = new Set(childrenOf(process.pid).map((c) => c.pid));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
  const browserPid = childrenOf(process.pid).find((c) => !before.has(c.pid) && /chrom/i.test(c.comm))?.pid;
  if (!browserPid) throw new Error('could not find the Chromium process');
  const context = { browser, base, server, browserPids: () => treePids(browserPid), chromiumPath, ffmpeg, tmp };
  const f2 = (x) => x.toFixed(2);
  const mib = (x) => `${Math.round(x)} MiB`;
  try {
    console.log(
      `\nspaces: N participants in one space, pages of one headless Chromium, each publishing a 320x180 canvas at 15 fps and Opus` +
        ` to every other through the werift SFU; ${RATE_SECONDS} s each (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)})`,
    );
    console.log(
      'N    forwarded (video + audio)   all decoding after   received fps per stream: mean (lowest)   SFU CPU   SFU memory   Chromium CPU   Chromium peak memory',
    );
    for (const n of COUNTS) {
      const r = await measureParticipants(context, n);
      const streams = n * (n - 1);
      const decoded = r.decodedAfter === undefined ? `${r.decoded} of ${streams} in ${DECODE_TIMEOUT_MS / 1000} s` : `${r.decodedAfter.toFixed(1)} s`;
      console.log(
        `${String(n).padEnd(4)} ${`${streams} + ${streams}`.padEnd(27)} ${decoded.padEnd(20)} ${`${r.meanFps.toFixed(1)} (${r.minFps.toFixed(1)})`.padEnd(40)} ${f2(r.sfu.cpu).padEnd(9)} ${mib(r.sfu.peak).padEnd(12)} ${f2(r.chromium.cpu).padEnd(14)} ${mib(r.chromium.peak)}${r.dropped ? `  (${r.dropped} dropped by the server)` : ''}`,
      );
    }
    const b = await measureBroadcast(context);
    console.log(
      `\nbroadcast beside 4 participants: one capture job (Xvfb, PulseAudio, Chromium, ffmpeg libx264 veryfast ${FPS} fps) loading the gallery compositor at ${WIDTH}x${HEIGHT}, ${BROADCAST_SECONDS} s (load average ${os.loadavg()[0].toFixed(1)})`,
    );
    console.log(`launch → first frame at the RTMP receiver   ${b.firstFrameSeconds.toFixed(2)} s`);
    console.log(`CPU of the job (cores)                      ${f2(b.job.cpu)}`);
    console.log(`peak memory of the job                      ${mib(b.job.peak)}`);
    console.log(`meanwhile: SFU CPU / participants' Chromium ${f2(b.sfu.cpu)} / ${f2(b.chromium.cpu)} cores`);
    console.log(`tiles showing their participant's colour    ${b.tiles} of 4 (${b.colours.map((c) => `rgb(${c.join(',')})`).join(' ')})`);
    if (b.tiles !== 4) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { benchSpaces };
if (require.main === module) {
  benchSpaces().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
