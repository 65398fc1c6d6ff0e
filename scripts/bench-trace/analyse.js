#!/usr/bin/env node
// Lines up what `npm run bench` with BENCH_TRACE=dir recorded: for each measured scenario, the
// slow requests grouped into episodes (requests over the threshold whose lifetimes overlap) and,
// for each episode, what every thread did meanwhile: its event-loop stalls and GCs (probe.js), the
// time it ran and the time it waited for a core, the cores' steal time and the CPU other processes
// used (sampler.js). Usage: analyse.js <dir> [threshold ms, default 20]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [dir, thresholdArg] = process.argv.slice(2);
const threshold = Number(thresholdArg ?? 20);
const TICK_MS = 10; // USER_HZ 100: /proc/stat counts in 10 ms ticks

const readLines = (file) =>
  fs
    .readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

const threads = fs
  .readdirSync(dir)
  .filter((f) => f.startsWith('probe-'))
  .map((f) => {
    const lines = readLines(f);
    const info = lines.find((l) => l.type === 'thread');
    return {
      ...info,
      stalls: lines.filter((l) => l.type === 'stall'),
      gcs: lines.filter((l) => l.type === 'gc'),
      delays: lines.filter((l) => l.type === 'delay'),
    };
  })
  .filter((t) => t.stalls.length + t.gcs.length > 0); // threads that never ran JS under load (a download worker) say nothing
const name = (t) => ({ generator: 'gen', main: 'main', worker1: 'gw' })[t.role] ?? t.role;
const samples = readLines('sampler.jsonl');
const GC_KIND = { 1: 'scav', 4: 'major', 8: 'incr', 16: 'weak' }; // perf_hooks' NODE_PERFORMANCE_GC_*

/** Deltas over [from, to] from the sampler: per watched thread run/wait ms, steal and busy ms per core. */
function machine(from, to) {
  const inside = samples.filter((s) => s.t >= from - 10 && s.t <= to + 10);
  if (inside.length < 2) return undefined;
  const [a, b] = [inside[0], inside[inside.length - 1]];
  const perThread = {};
  let ours = 0;
  for (const [tid, [, run, wait]] of Object.entries(b.threads)) {
    const before = a.threads[tid];
    if (!before) continue;
    const d = { run: (run - before[1]) / 1e6, wait: (wait - before[2]) / 1e6 };
    ours += d.run;
    perThread[tid] = d;
  }
  const cpu = (i) => b.cpus.map((c, n) => (c[i] - a.cpus[n][i]) * TICK_MS);
  const busy = b.cpus.map((c, n) => [0, 1, 2, 5, 6].reduce((s, i) => s + (c[i] - a.cpus[n][i]) * TICK_MS, 0));
  return { ms: b.t - a.t, perThread, steal: cpu(7), busy, others: busy.reduce((x, y) => x + y, 0) - ours };
}

const overlapping = (events, from, to) => events.filter((e) => e.at < to && e.at + e.ms > from);
const fmt = (v) => v.toFixed(0);

function describe(from, to) {
  const parts = [];
  const m = machine(from, to);
  for (const t of threads) {
    const stalls = overlapping(t.stalls, from, to);
    const gcs = overlapping(t.gcs, from, to);
    const cpu = m?.perThread[t.tid];
    const bits = [];
    if (stalls.length) bits.push(`stall ${stalls.map((s) => fmt(s.ms)).join('+')}`);
    if (gcs.length) bits.push(`gc ${gcs.map((g) => `${GC_KIND[g.kind] ?? g.kind}${g.ms.toFixed(1)}`).join(' ')}`);
    if (cpu) bits.push(`ran ${fmt(cpu.run)} waited ${fmt(cpu.wait)}`);
    parts.push(`${name(t)}[${bits.join(', ')}]`);
  }
  if (m) parts.push(`steal ${m.steal.map(fmt).join('/')} others ${fmt(m.others)} (over ${fmt(m.ms)} ms)`);
  return parts.join(' ');
}

for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('requests-'))) {
  const requests = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')).sort((a, b) => a[0] - b[0]);
  const start = requests[0][0];
  const end = requests[requests.length - 1][0];
  const lat = requests.map((r) => r[1] ?? Infinity).sort((a, b) => a - b);
  console.log(
    `\n== ${file}: ${requests.length} requests, p50 ${lat[Math.floor(lat.length / 2)].toFixed(1)} p99 ${lat[Math.floor(lat.length * 0.99)].toFixed(1)} max ${lat[lat.length - 1].toFixed(1)} ms`,
  );
  console.log(
    `whole run: ${describe(start, end)
      .replace(/stall [^,\]]*/g, (s) => `${s.split('+').length} stalls`)
      .replace(/gc [^,\]]*/g, (g) => `${g.split(' ').length - 1} gcs`)}`,
  );
  for (const t of threads) {
    const stalls = t.stalls.filter((s) => s.at >= start && s.at <= end);
    const gcs = t.gcs.filter((g) => g.at >= start && g.at <= end);
    const byKind = {};
    for (const g of gcs) {
      const k = GC_KIND[g.kind] ?? g.kind;
      byKind[k] = byKind[k] ?? { n: 0, ms: 0, max: 0 };
      byKind[k].n++;
      byKind[k].ms += g.ms;
      byKind[k].max = Math.max(byKind[k].max, g.ms);
    }
    const kinds = Object.entries(byKind).map(([k, v]) => `${k} ×${v.n} ${v.ms.toFixed(0)} ms (max ${v.max.toFixed(1)})`);
    const big = stalls.filter((s) => s.ms > 10).map((s) => `${((s.at - start) / 1000).toFixed(2)}s:${fmt(s.ms)}`);
    console.log(`  ${name(t).padEnd(4)} tid ${t.tid}: stalls>5ms ${stalls.length}, >10ms [${big.join(' ')}]; ${kinds.join(', ')}`);
  }
  // episodes: slow requests whose lifetimes overlap
  const slow = requests.filter((r) => r[1] === null || r[1] > threshold);
  const episodes = [];
  for (const [at, ms] of slow) {
    const to = at + (ms ?? 10_000);
    const last = episodes[episodes.length - 1];
    if (last && at <= last.to) {
      last.to = Math.max(last.to, to);
      last.n++;
      last.max = Math.max(last.max, ms ?? Infinity);
    } else episodes.push({ from: at, to, n: 1, max: ms ?? Infinity });
  }
  console.log(`${slow.length} requests over ${threshold} ms in ${episodes.length} episodes:`);
  for (const e of episodes) {
    console.log(`  at ${((e.from - start) / 1000).toFixed(2)}s ${e.n} req, max ${e.max.toFixed(0)} ms: ${describe(e.from, e.to)}`);
  }
}
