// Generated subtitles for `npm run bench` (skipped with --no-live or --no-captions):
//   - how far the subtitle playlist trails the media one on a live stream speaking English
//   - how fast the recognizer hears (times real time, one process), i.e. streams one core captions
//   - generated subtitles of an on-demand asset: POST generate-subtitles → track ready, as a multiple of real time
'use strict';
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { ffmpegPath } = require('./bench-support');
const { median } = require('./bench-live');

const ROOT = path.resolve(__dirname, '..');
const SPEECH = path.join(ROOT, 'scripts/infra/speech.sh');
const RECOGNIZE = path.join(ROOT, 'libs/captions/speech/recognize.py');
const SPOKEN = 'The weather is nice today. One two three four five six seven eight nine ten. Good morning and welcome to the show.';

/** Seconds of the on-demand asset whose subtitles are generated. */
const VOD_SECONDS = 120;

/** Spoken English (espeak-ng, made once), the recognizer's Python, and a 2 min 320x240 clip speaking it in a loop. */
function prepareCaptionsSource() {
  const python = execFileSync('bash', [SPEECH], { encoding: 'utf8' }).trim();
  const espeak = execFileSync('bash', [SPEECH, 'voice'], { encoding: 'utf8' }).trim();
  const wav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-speech-')), 'spoken.wav');
  execFileSync(espeak, ['-v', 'en-us', '-s', '130', '-w', wav, SPOKEN]);
  const clip = path.join(path.dirname(wav), 'spoken.mp4');
  execFileSync(ffmpegPath(), [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${VOD_SECONDS}`, '-stream_loop', '-1', '-i', wav],
    ...['-map', '0:v', '-map', '1:a', '-t', String(VOD_SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-ar', '48000', '-ac', '2', clip],
  ]);
  return { python, wav, clip };
}

async function poll(check, timeoutMs, everyMs = 50) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Generated subtitles of an on-demand asset: once its ladder is stored (the master lists no `source`
 * rendition), POST generate-subtitles on its primary audio track and time it to the track's `ready`:
 * the whole task (the stored audio fetched and decoded, heard, the WebVTT segmented and stored).
 */
async function benchVodSubtitles({ json, streamUrl }, { clip }) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-length': fs.statSync(clip).size });
    fs.createReadStream(clip).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${server.address().port}/spoken.mp4`;
    const asset = (await (await json('POST', '/video/v1/assets', { inputs: [{ url }], playback_policies: ['public'] })).json()).data;
    const playbackId = asset.playback_ids[0].id;
    const ready = await poll(async () => {
      const a = (await (await json('GET', `/video/v1/assets/${asset.id}`)).json()).data;
      return a.status === 'ready' ? a : undefined;
    }, 300_000);
    await poll(async () => {
      const master = await fetch(`${streamUrl}/${playbackId}.m3u8`).then((r) => r.text());
      return master.includes('#EXT-X-STREAM-INF') && !master.includes('/source/');
    }, 300_000);
    const audio = ready.tracks.find((t) => t.type === 'audio' && t.primary);
    const t0 = performance.now();
    const [track] = (await (await json('POST', `/video/v1/assets/${asset.id}/tracks/${audio.id}/generate-subtitles`, { generated_subtitles: [{}] })).json())
      .data;
    const done = await poll(
      async () => {
        const a = (await (await json('GET', `/video/v1/assets/${asset.id}`)).json()).data;
        const t = a.tracks.find((x) => x.id === track.id);
        return t.status === 'preparing' ? undefined : t;
      },
      600_000,
      100,
    );
    const seconds = (performance.now() - t0) / 1000;
    if (done.status !== 'ready') throw new Error(`generated subtitles ${done.status}: ${JSON.stringify(done.error)}`);
    const vtt = await fetch(`${streamUrl}/${playbackId}/text/${track.id}.vtt`).then((r) => r.text());
    console.log(
      `generated subtitles of an on-demand asset         ${(ready.duration / seconds).toFixed(1)}× real time (${ready.duration.toFixed(0)} s asset: generate-subtitles → ready in ${seconds.toFixed(1)} s, ${(vtt.match(/-->/g) ?? []).length} cues)`,
    );
  } finally {
    server.close();
  }
}

/** Lists of what a playback id's live edge and its subtitle rendition list, first seen when. */
function watchBoth(streamUrl, playbackId) {
  const seen = { media: new Map(), subs: new Map() };
  let stopped = false;
  const names = (text) =>
    text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => path.basename(l.split('?')[0]));
  const loop = (async () => {
    while (!stopped) {
      const master = await fetch(`${streamUrl}/${playbackId}.m3u8`).then(
        (r) => (r.ok ? r.text() : ''),
        () => '',
      );
      const media = master.split('\n').find((l) => l.startsWith(`${playbackId}/`));
      const subs = /TYPE=SUBTITLES[^\n]*URI="([^"]+)"/.exec(master)?.[1];
      for (const [kind, uri] of [
        ['media', media],
        ['subs', subs],
      ]) {
        if (!uri) continue;
        const text = await fetch(`${streamUrl}/${uri}`).then(
          (r) => (r.ok ? r.text() : ''),
          () => '',
        );
        for (const name of names(text)) if (!seen[kind].has(name.replace(/\.\w+$/, ''))) seen[kind].set(name.replace(/\.\w+$/, ''), Date.now());
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { seen, stop: async () => ((stopped = true), await loop) };
}

async function benchCaptions({ json, streamUrl, rtmpPort }, source) {
  const { python, wav } = source;
  const ffmpeg = ffmpegPath();
  console.log('\nGenerated live subtitles (PocketSphinx en-us; spoken English under a 640x360 test pattern, reduced latency, 2 s segments)');
  const stream = (
    await (
      await json('POST', '/video/v1/live-streams', { playback_policy: ['public'], latency_mode: 'reduced', generated_subtitles: [{ language_code: 'en' }] })
    ).json()
  ).data;
  const encoder = spawn(
    ffmpeg,
    [
      '-v',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=30',
      '-stream_loop',
      '-1',
      '-i',
      wav,
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-g',
      '60',
      '-c:a',
      'aac',
      '-ar',
      '48000',
      '-t',
      '40',
      '-f',
      'flv',
      `rtmp://127.0.0.1:${rtmpPort}/app/${stream.stream_key}`,
    ],
    { stdio: 'ignore' },
  );
  const watcher = watchBoth(streamUrl, stream.playback_ids[0].id);
  await new Promise((r) => encoder.once('exit', r));
  await new Promise((r) => setTimeout(r, 3000));
  await watcher.stop();
  const lags = [...watcher.seen.media]
    .filter(([name]) => watcher.seen.subs.has(name))
    .map(([name, at]) => watcher.seen.subs.get(name) - at)
    .slice(1, -1);
  console.log(
    `subtitle segment listed after its media segment   median ${(median(lags) / 1000).toFixed(2)} s  (max ${(Math.max(...lags) / 1000).toFixed(2)} s over ${lags.length} segments)`,
  );

  // the recognizer alone: 120 s of the speech as 16 kHz PCM, one process
  const pcm = execFileSync(ffmpeg, ['-v', 'error', '-stream_loop', '-1', '-i', wav, '-t', '120', '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const t0 = performance.now();
  const run = spawnSync(python, [RECOGNIZE, '--max-utterance', '4'], { input: pcm, maxBuffer: 16 * 1024 * 1024 });
  const seconds = (performance.now() - t0) / 1000;
  if (run.status !== 0) throw new Error(`recognizer failed: ${run.stderr}`);
  console.log(`recognizer speed (one process, live settings)      ${(120 / seconds).toFixed(1)}× real time (120 s of speech in ${seconds.toFixed(1)} s)`);
  await benchVodSubtitles({ json, streamUrl }, source);
}

module.exports = { benchCaptions, benchVodSubtitles, prepareCaptionsSource };
