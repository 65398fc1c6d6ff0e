// The gateway of the embedded platform, in a worker thread of its own. It only talks gRPC to the
// services (and reads its access tokens from the embedded Postgres over loopback), so it needs
// nothing of the main thread's state; on its own thread the HTTP side of every request (parsing,
// routing, auth, JSON, the gRPC client) runs on a second core instead of queueing on the one
// event loop that runs every service and PGlite. See docs/decisions.md, "Performance".
'use strict';
const path = require('node:path');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const { addMetricsSource, metricsOfWorker } = require('@platform/metrics');

const GATEWAY_MAIN = path.join(__dirname, '..', 'services', 'gateway', 'dist', 'main.js');

/** A thread that dies after start-up is a crash of the platform, as it was when the gateway ran on the main thread. */
function exitOnFailure(reason) {
  console.error(`The gateway thread failed: ${reason}`);
  process.exit(1);
}

/**
 * Boots `entry`'s `bootstrap(config)` (the gateway) in a worker thread; resolves once it is up,
 * with `close()`. Rejects if it fails to boot; calls `onFailure` if the thread dies afterwards.
 */
function startGatewayThread(config, { entry = GATEWAY_MAIN, onFailure = exitOnFailure } = {}) {
  const worker = new Worker(path.join(__dirname, 'gateway-thread.js'), { workerData: { config, entry } });
  let closing = false;
  const failed = (reason) => closing || onFailure(reason);
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message) => {
      worker.off('error', reject);
      if (message.error) {
        void worker.terminate();
        reject(new Error(message.error));
        return;
      }
      worker.on('error', (err) => failed(err instanceof Error ? err.stack : String(err)));
      // METRICS_PORT: the main thread's /metrics answers for the gateway's thread too
      if (config.metricsPort > 0) addMetricsSource(metricsOfWorker(worker));
      worker.on('exit', (code) => failed(`exited with code ${code}`));
      resolve({
        close: () =>
          new Promise((done) => {
            closing = true;
            worker.once('exit', () => done());
            worker.postMessage('close');
          }),
      });
    });
  });
}

async function runInThread({ config, entry }) {
  require('reflect-metadata');
  let app;
  try {
    app = await require(entry).bootstrap(config);
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.stack : String(err) });
    return;
  }
  parentPort.on('message', (message) => {
    if (message === 'close') void app.close().finally(() => process.exit(0)); // ends this thread only
  });
  parentPort.postMessage({ up: true });
}

if (!isMainThread && workerData?.entry) void runInThread(workerData);

module.exports = { startGatewayThread };
