// Open-loop load generator for `npm run bench`: requests leave at a fixed offered rate whatever the
// responses do (a slow server does not slow the client down), and each latency is counted from the
// moment its request was SCHEDULED, so queueing in the server or in the client shows in the figures
// (no coordinated omission). Failures are counted by kind: a network error code (ECONNRESET…), an
// unexpected HTTP status, or a request still unanswered after the timeout.
'use strict';
const fs = require('node:fs');
const http = require('node:http');

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/**
 * @param {object} o
 * @param {string} o.baseUrl        http://host:port
 * @param {(i: number) => {method: string, path: string, headers?: object, body?: string}} o.request
 * @param {number} o.rate           offered requests per second
 * @param {number} o.seconds        measured duration
 * @param {number} [o.warmupSeconds] sent at the same rate before, not measured
 * @param {number[]} [o.expectedStatus]
 * @param {number} [o.timeoutMs]
 * @param {number} [o.pid]          the server's process: its CPU time per request is reported
 * @param {boolean} [o.keepRequests] the result lists each measured request as [scheduled send (wall-clock ms), latency ms or null if failed]
 */
async function openLoop(o) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });
  try {
    if (o.warmupSeconds) await run({ ...o, seconds: o.warmupSeconds }, agent, 0);
    const cpuBefore = o.pid ? cpuSeconds(o.pid) : undefined;
    const startedAt = performance.now();
    const result = await run(o, agent, 1_000_000);
    if (cpuBefore !== undefined) {
      const cpu = cpuSeconds(o.pid) - cpuBefore;
      result.cpuMsPerRequest = (cpu * 1000) / result.total;
      // well under 100 % while latency grows: the server waited for a CPU the machine gave to others
      result.cpuShare = cpu / ((performance.now() - startedAt) / 1000);
    }
    return result;
  } finally {
    agent.destroy();
  }
}

function run(o, agent, firstIndex) {
  const { baseUrl, request, rate, seconds, expectedStatus = [200, 201], timeoutMs = 10_000 } = o;
  const total = Math.round(rate * seconds);
  const latencies = [];
  const requests = o.keepRequests ? [] : undefined;
  const errors = {};
  const fail = (kind) => (errors[kind] = (errors[kind] ?? 0) + 1);
  const { hostname, port } = new URL(baseUrl);
  let sent = 0;
  let settled = 0;
  let lastSettled = 0;
  const start = performance.now() + 5;

  return new Promise((resolve) => {
    const settle = (scheduledAt, kind) => {
      const now = performance.now();
      if (kind) fail(kind);
      else latencies.push(now - scheduledAt);
      requests?.push([performance.timeOrigin + scheduledAt, kind ? null : now - scheduledAt]);
      lastSettled = now;
      if (++settled === total) finish();
    };
    const send = (i, scheduledAt) => {
      const r = request(firstIndex + i);
      let done = false;
      const once = (kind) => {
        if (done) return;
        done = true;
        settle(scheduledAt, kind);
      };
      const req = http.request({ host: hostname, port, method: r.method, path: r.path, headers: r.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => once(expectedStatus.includes(res.statusCode) ? undefined : `HTTP ${res.statusCode}`));
        res.on('error', (err) => once(err.code ?? err.message));
      });
      req.setTimeout(timeoutMs, () => {
        once(`no answer in ${timeoutMs} ms`);
        req.destroy();
      });
      req.on('error', (err) => once(err.code ?? err.message));
      req.end(r.body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= now) {
        send(sent, start + (sent * 1000) / rate);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / rate - performance.now()));
    };
    const finish = () => {
      latencies.sort((a, b) => a - b);
      const pct = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] : NaN);
      resolve({
        offered: rate,
        total,
        ok: latencies.length,
        // answers with the expected status per second, from the first scheduled send to the last answer
        achieved: latencies.length / ((lastSettled - start) / 1000),
        p50: pct(50),
        p99: pct(99),
        max: latencies.length ? latencies[latencies.length - 1] : NaN,
        errors,
        requests,
      });
    };
    setTimeout(tick, 5);
  });
}

/** One line per run: offered and achieved rate, p50/p99/max, and every failure by kind. */
function formatRun(name, r) {
  const ms = (v) => `${v.toFixed(1)} ms`.padStart(9);
  const failures = Object.entries(r.errors)
    .filter(([kind]) => kind !== 'ECONNRESET')
    .map(([kind, n]) => `${kind} ×${n}`)
    .join(', ');
  return (
    `${name.padEnd(30)} offered ${String(r.offered).padStart(4)}/s  achieved ${r.achieved.toFixed(0).padStart(4)}/s  ` +
    `p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  max ${ms(r.max)}  ${r.cpuMsPerRequest === undefined ? '' : `server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/req (${(100 * r.cpuShare).toFixed(0)} % of a core)  `}ECONNRESET ${r.errors.ECONNRESET ?? 0}${failures ? `  other failures: ${failures}` : ''}`
  );
}

module.exports = { openLoop, formatRun };
