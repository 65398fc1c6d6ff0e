// Diagnostics for `npm run bench` with BENCH_TRACE=dir: in each thread it runs in, logs every
// event-loop stall over STALL_MS and every garbage collection with wall-clock times
// (performance.timeOrigin + now, so threads and processes line up), and once a second the
// event-loop delay's percentiles. The bench preloads it into every thread of the platform
// (`node -r`, which worker threads inherit) and starts it in the load generator itself.
// scripts/bench-trace/analyse.js lines these up with each slow request.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { monitorEventLoopDelay, PerformanceObserver, performance } = require('node:perf_hooks');
const { isMainThread, threadId } = require('node:worker_threads');

const TICK_MS = 5;
const STALL_MS = 5;

function startProbe(dir, role) {
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  const fd = fs.openSync(path.join(dir, `probe-${process.pid}-${tid}.jsonl`), 'w');
  const wall = (t) => performance.timeOrigin + t;
  let lines = [];
  const put = (o) => lines.push(JSON.stringify(o));
  // hr: the same moment on CLOCK_MONOTONIC (µs), the clock of V8's CPU profiles and of `perf record -k mono`
  const now = performance.now();
  const hr = Number(process.hrtime.bigint() / 1000n);
  put({ type: 'thread', role: role ?? (isMainThread ? 'main' : `worker${threadId}`), pid: process.pid, tid, at: wall(now), hr });

  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const late = now - last - TICK_MS;
    if (late > STALL_MS) put({ type: 'stall', at: wall(last), ms: +late.toFixed(2) });
    last = now;
  }, TICK_MS).unref();

  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) put({ type: 'gc', at: wall(e.startTime), ms: +e.duration.toFixed(2), kind: e.detail.kind });
  }).observe({ entryTypes: ['gc'] });

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const flush = () => {
    put({ type: 'delay', at: wall(performance.now()), p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 });
    delay.reset();
    fs.writeSync(fd, lines.join('\n') + '\n');
    lines = [];
  };
  setInterval(flush, 1000).unref();
  process.on('exit', flush);
}

// preloaded with `node -r`: every thread of that process traces itself
if (module.parent?.id === 'internal/preload' && process.env.BENCH_TRACE) startProbe(process.env.BENCH_TRACE);

module.exports = { startProbe };
