#!/usr/bin/env node
// Production shape on one machine: every service in its own process, as one pod each on
// Kubernetes. Needs DATABASE_URL and KAFKA_BROKERS (processes cannot share an in-process
// bus or PGlite). Output lines are prefixed with the service name; Ctrl-C stops them all.
// A service that dies is started again after a short back-off, as Kubernetes restarts a
// crashed pod; one that keeps dying (5 crashes within a minute; a clean exit 0 is not one) stops the platform.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { loadConfig, SERVICES } = require('@platform/config');
const { descendantsOf, handleShutdownSignals, SHUTDOWN_DEADLINE_MS } = require('@platform/grpc');

const config = loadConfig();
if (!config.databaseUrl || !config.kafka) {
  console.error('start:services needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded platform)');
  process.exit(2);
}

const children = new Map();
const crashes = new Map();
let stopping = false;

function run(name) {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'services', name, 'dist', 'main.js')], {
    env: { ...process.env, EMBEDDED: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (stream, out) => {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    const recent = (crashes.get(name) ?? []).filter((t) => Date.now() - t < 60_000);
    // A clean exit (0: the service was asked to stop and did) is restarted but is no crash.
    if (code !== 0) recent.push(Date.now());
    crashes.set(name, recent);
    if (recent.length >= 5) {
      console.error(`[${name}] exited (${signal ?? code}) ${recent.length} times within a minute; stopping the platform`);
      void stop(1).then(() => process.exit(1));
      return;
    }
    const delay = 500 * 2 ** Math.max(0, recent.length - 1);
    console.error(`[${name}] exited (${signal ?? code}); restarting in ${delay} ms`);
    setTimeout(() => !stopping && run(name), delay);
  });
  children.set(name, child);
}

/**
 * Each service gets SIGTERM and stops within its own SHUTDOWN_DEADLINE_MS (run-standalone.js);
 * one still running a few seconds past that is killed, with its children (ffmpeg), as the kubelet
 * does after terminationGracePeriodSeconds.
 */
function stop(code) {
  if (stopping) return Promise.resolve();
  stopping = true;
  const running = [...children.values()].filter((c) => c.exitCode === null && c.signalCode === null);
  for (const child of running) child.kill('SIGTERM');
  const deadline = setTimeout(() => {
    for (const child of running) {
      for (const pid of descendantsOf(child.pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      child.kill('SIGKILL');
    }
  }, SHUTDOWN_DEADLINE_MS + 5000);
  return Promise.all(running.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() => {
    clearTimeout(deadline);
    process.exitCode = code;
  });
}

handleShutdownSignals(() => stop(0), { deadlineMs: SHUTDOWN_DEADLINE_MS + 10_000 });

for (const { name } of SERVICES) run(name);
run('gateway');
console.log(`Started ${SERVICES.length + 1} service processes; API on http://localhost:${config.apiPort} once /healthz answers 200`);
