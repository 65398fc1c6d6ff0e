#!/usr/bin/env node
// Diagnostics for `npm run bench` with BENCH_TRACE=dir: every SAMPLE_MS, the machine's CPU time by
// kind per core (/proc/stat: steal is time the hypervisor gave this VM's core to someone else) and,
// for every thread of the given processes, the time it ran and the time it waited runnable for a
// core (/proc/<pid>/task/<tid>/schedstat, nanoseconds). Written to dir/sampler.jsonl, one line per
// sample, until SIGTERM. Threads are read every SAMPLE_MS while they are busy (HOT_MS). Usage: sampler.js <dir> <pid>...
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const SAMPLE_MS = 10;
const [dir, ...pids] = process.argv.slice(2);
const out = fs.openSync(path.join(dir, 'sampler.jsonl'), 'w');
const buf = Buffer.alloc(8192);
const read = (fd) => buf.toString('latin1', 0, fs.readSync(fd, buf, 0, buf.length, 0));

const statFd = fs.openSync('/proc/stat', 'r');
/** tid → { pid, fd of its schedstat, run ns at the last full pass }; renewed every second. */
const tasks = new Map();
/** Threads that ran ≥ HOT_MS in the last second: only these are read every SAMPLE_MS (reading all costs a few % of a core). */
const HOT_MS = 20;
let hot = [];
function everyThread() {
  for (const pid of pids) {
    let tids = [];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      // gone
    }
    for (const tid of tids) {
      if (tasks.has(tid)) continue;
      try {
        tasks.set(tid, { pid, fd: fs.openSync(`/proc/${pid}/task/${tid}/schedstat`, 'r'), run: 0 });
      } catch {
        // gone already
      }
    }
  }
  hot = [];
  for (const [tid, task] of tasks) {
    const stat = schedstat(tid, task);
    if (!stat) continue;
    if (stat[0] - task.run >= HOT_MS * 1e6) hot.push(tid);
    task.run = stat[0];
  }
}

function schedstat(tid, task) {
  try {
    return read(task.fd).split(' ').map(Number);
  } catch {
    fs.closeSync(task.fd);
    tasks.delete(tid);
    return undefined;
  }
}

let lines = [];
function sample() {
  const cpus = read(statFd)
    .split('\n')
    .filter((l) => /^cpu\d/.test(l))
    .map((l) => l.split(' ').slice(1, 9).map(Number));
  const threads = {};
  for (const tid of hot) {
    const task = tasks.get(tid);
    const stat = task && schedstat(tid, task);
    if (stat) threads[tid] = [task.pid, stat[0], stat[1]];
  }
  lines.push(JSON.stringify({ t: performance.timeOrigin + performance.now(), cpus, threads }));
}

everyThread();
setInterval(everyThread, 1000);
setInterval(sample, SAMPLE_MS);
setInterval(() => {
  fs.writeSync(out, lines.join('\n') + '\n');
  lines = [];
}, 1000);
process.on('SIGTERM', () => {
  fs.writeSync(out, lines.join('\n') + '\n');
  process.exit(0);
});
