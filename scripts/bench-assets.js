// Helpers of the bench parts that make assets from a local file (scripts/bench-clips.js, bench-images.js):
// serving the file, waiting for `ready`, finding and pausing the asset's ladder encode, CPU and load figures.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { statOf } = require('./bench-support');

function serve(file) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/${path.basename(file)}`, close: () => server.close() })),
  );
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
const stopped = (pids) => pids.every((pid) => statOf(pid)?.[0] === 'T');
/** The machine's load average: figures taken beside other work are not comparable. */
const load = () => `  [load ${os.loadavg()[0].toFixed(1)}]`;

module.exports = { ladderEncodes, load, readyAfter, serve, signal, stopped, waitForLadder };
