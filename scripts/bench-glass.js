// Glass-to-glass latency per latency mode in a real player (`npm run bench`, the live part; issue 17):
// an RTMP push of a 720p30 test pattern with each frame's capture time burnt in (bench-live's encoder)
// is played by hls.js in Debian's Chromium with its default live settings; the page reads the barcode
// of every frame it presents (e2e/support/player) and when it was shown, so each frame's latency is its
// display time less its capture time, on one machine's clock.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const { URLSearchParams } = require('node:url');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const PLAYER = path.join(ROOT, 'e2e/support/player/player.html');
/** Seconds of playback measured per mode, after the first WARMUP_S of it. */
const MEASURE_S = 20;
const WARMUP_S = 5;

/** The player page and hls.js from node_modules on a port of their own. */
async function servePlayer() {
  const files = { '/': [PLAYER, 'text/html; charset=utf-8'], '/hls.min.js': [require.resolve('hls.js/dist/hls.min.js'), 'text/javascript'] };
  const server = http.createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[1] });
    fs.createReadStream(file[0]).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

async function launchChromium() {
  const { chromium } = require('playwright-core');
  const executablePath = execFileSync('bash', [path.join(ROOT, 'scripts/infra/chromium.sh')], { encoding: 'utf8' }).trim();
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
}

/**
 * Latency of every frame shown during MEASURE_S of playback of `masterUrl` (after WARMUP_S), in ms:
 * `ageOf(shownAt, burnt)` turns a frame's burnt-in capture time into its age when shown.
 */
async function glassToGlass(browser, playerPort, masterUrl, barcode, ageOf) {
  await segmentsListed(masterUrl, 3);
  const page = await browser.newPage();
  try {
    const query = new URLSearchParams({ src: masterUrl, barcode: `${barcode.bits},${barcode.block}` });
    await page.goto(`http://127.0.0.1:${playerPort}/?${query}`);
    const deadline = Date.now() + 60_000;
    let state = await page.evaluate('window.state()');
    while (!state.fatal && state.currentTime < 0.5 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      state = await page.evaluate('window.state()');
    }
    if (state.fatal || state.currentTime < 0.5) throw new Error(`the player did not start: ${state.fatal ?? 'timeout'}`);
    const from = Date.now() + WARMUP_S * 1000;
    await new Promise((r) => setTimeout(r, (WARMUP_S + MEASURE_S) * 1000));
    state = await page.evaluate('window.state()');
    return state.presented.flatMap((burnt, i) => (state.presentedAt[i] >= from ? [ageOf(state.presentedAt[i], burnt)] : []));
  } finally {
    await page.close();
  }
}

/** Waits until the live playlist a master names lists `count` segments (a player then starts as on a stream already live). */
async function segmentsListed(masterUrl, count, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const master = await fetch(masterUrl).catch(() => undefined);
    if (master?.status === 200) {
      const variant = (await master.text()).split('\n').find((l) => l.trim() && !l.startsWith('#'));
      const media = variant ? await (await fetch(new URL(variant, masterUrl))).text() : '';
      if ((media.match(/#EXTINF/g) ?? []).length >= count) return;
    } else await master?.arrayBuffer();
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${masterUrl} never listed ${count} segments`);
}

module.exports = { servePlayer, launchChromium, glassToGlass, MEASURE_S };
