// Helpers the benches share: tools from scripts/infra, a free port, waits, CPU ticks and resident memory of processes
// from /proc (of a process group, or of a process tree), sampled over a while, and a capture job launched at an RTMP
// listener (bench-web-inputs, bench-spaces).
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TICKS = 100; // clock ticks per second of /proc/<pid>/stat

/** The path a scripts/infra tool prints (chromium.sh, ffmpeg.sh), installing it first if needed. */
const tool = (script) => execFileSync('bash', [path.join(ROOT, 'scripts/infra', script)], { encoding: 'utf8' }).trim();
/** ffmpeg (FFMPEG_PATH, or installed by scripts/infra/ffmpeg.sh). */
const ffmpegPath = () => tool('ffmpeg.sh');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Polls `probe` every `intervalMs` until it returns something other than undefined, and resolves with it. */
async function waitFor(what, probe, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** A process's fields after its command name in /proc/<pid>/stat (state is [0], ppid [1], pgid [2]), and the name; undefined once gone. */
function statOf(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const end = text.lastIndexOf(') ');
    return Object.assign(text.slice(end + 2).split(' '), { comm: text.slice(text.indexOf('(') + 1, end) });
  } catch {
    return undefined;
  }
}

/** Every process's stat fields, by pid. */
function allStats() {
  const stats = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    const fields = /^\d+$/.test(entry) ? statOf(entry) : undefined;
    if (fields) stats.set(Number(entry), fields);
  }
  return stats;
}

/** The pids of a process group (a capture job's: the launcher starts each job in a group of its own). */
const groupPids = (pgid) => [...allStats()].filter(([, fields]) => Number(fields[2]) === pgid).map(([pid]) => pid);

/** A process and all its descendants. */
function treePids(root) {
  const children = new Map();
  for (const [pid, fields] of allStats()) children.set(Number(fields[1]), [...(children.get(Number(fields[1])) ?? []), pid]);
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i]) ?? []));
  return pids;
}

/** The direct children of `ppid`, with their command names. */
const childrenOf = (ppid) => [...allStats()].filter(([, fields]) => Number(fields[1]) === ppid).map(([pid, fields]) => ({ pid, comm: fields.comm }));

/** User + system clock ticks a process has used (utime, stime); 0 once gone. */
const ticksOf = (pid) => {
  const fields = statOf(pid);
  return fields ? Number(fields[11]) + Number(fields[12]) : 0;
};
const rssMiB = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};
/** User + system CPU seconds of some processes (those alive now). */
const cpuSeconds = (pids) => pids.reduce((sum, pid) => sum + ticksOf(pid), 0) / TICKS;
/** CPU seconds a process and its reaped children (ffmpeg, ffprobe) have used: utime, stime, cutime, cstime; 0 once gone. */
const cpuSecondsWithChildren = (pid) => (statOf(pid)?.slice(11, 15) ?? []).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS;
/** Resident memory summed over some processes (shared pages count once per process: an upper bound). */
const rssSumMiB = (pids) => pids.reduce((sum, pid) => sum + rssMiB(pid), 0);

/**
 * CPU (cores: user + system time over the wall time) and peak resident memory (MiB, sampled each second) of named
 * sets of processes over `seconds` (each set a function giving its pids now), and of this process as `self`.
 */
async function sampleLoad(seconds, sets) {
  const startCpu = Object.fromEntries(Object.entries(sets).map(([name, pids]) => [name, cpuSeconds(pids())]));
  const startUsage = process.cpuUsage();
  const startedAt = performance.now();
  const peak = { self: 0 };
  while (performance.now() - startedAt < seconds * 1000) {
    await sleep(1000);
    peak.self = Math.max(peak.self, process.memoryUsage().rss / 2 ** 20);
    for (const [name, pids] of Object.entries(sets)) peak[name] = Math.max(peak[name] ?? 0, rssSumMiB(pids()));
  }
  const wall = (performance.now() - startedAt) / 1000;
  const usage = process.cpuUsage(startUsage);
  const figures = { self: { cpu: (usage.user + usage.system) / 1e6 / wall, peak: peak.self } };
  for (const [name, pids] of Object.entries(sets)) figures[name] = { cpu: (cpuSeconds(pids()) - startCpu[name]) / wall, peak: peak[name] };
  return figures;
}

/**
 * A capture job (libs/capture's launcher) launched at an ffmpeg RTMP listener standing in for the ingest; `outputs`
 * are more outputs for the listener (a frame file). Resolves once the first frame arrives, with the listener (the
 * caller kills it) and the seconds from launch to that frame; rejects, both stopped, if the job ends first or no frame
 * comes in time.
 */
async function launchToReceiver(launcher, job, { ffmpeg, outputs = [], timeoutMs = 90_000 }) {
  const rtmpUrl = `rtmp://127.0.0.1:${await freePort()}/app/key`;
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-listen', '1', '-i', rtmpUrl, '-progress', 'pipe:1', '-f', 'null', '-', ...outputs];
  const receiver = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let firstFrameAt;
  let ended;
  receiver.stdout.on('data', (chunk) => {
    if (firstFrameAt === undefined && /frame=[1-9]/.test(chunk.toString())) firstFrameAt = Date.now();
  });
  try {
    await sleep(500); // the listener bound
    const launchedAt = Date.now();
    await launcher.launch({ ...job, rtmpUrl }, (report) => {
      if (report.type === 'ended') ended = report;
    });
    await waitFor('the first frame at the RTMP receiver', () => (firstFrameAt !== undefined || ended ? true : undefined), timeoutMs);
    if (firstFrameAt === undefined) throw new Error(`the capture job ended before a frame arrived: ${JSON.stringify(ended)}`);
    return { receiver, firstFrameSeconds: (firstFrameAt - launchedAt) / 1000 };
  } catch (err) {
    await launcher.stop(job.jobId).catch(() => {});
    receiver.kill('SIGKILL');
    throw err;
  }
}

module.exports = {
  ROOT,
  TICKS,
  statOf,
  tool,
  ffmpegPath,
  sleep,
  waitFor,
  freePort,
  groupPids,
  treePids,
  childrenOf,
  ticksOf,
  rssMiB,
  cpuSeconds,
  cpuSecondsWithChildren,
  rssSumMiB,
  sampleLoad,
  launchToReceiver,
};
