// A stand-in for services/gateway/dist/main.js in gateway-thread.spec.ts: `config.behaviour` says
// what it does; when it boots it answers HTTP on config.apiPort with the thread it runs on.
'use strict';
const http = require('node:http');
const { threadId } = require('node:worker_threads');

async function bootstrap(config) {
  if (config.behaviour === 'fail-to-boot') throw new Error('boot failed on purpose');
  const server = http.createServer((_req, res) => res.end(JSON.stringify({ threadId })));
  await new Promise((resolve) => server.listen(config.apiPort, '127.0.0.1', resolve));
  if (config.behaviour === 'crash-later') setTimeout(() => Promise.reject(new Error('crashed on purpose')), 50);
  return { close: () => new Promise((resolve) => server.close(resolve)) };
}

module.exports = { bootstrap };
