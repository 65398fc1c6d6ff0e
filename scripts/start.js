#!/usr/bin/env node
// `npm start`: the whole platform in one Node process (embedded mode). Every service is
// still its own NestJS app with its own gRPC server on loopback; they share PGlite (over
// the Postgres wire protocol), the in-process event bus and the filesystem store; the
// gateway runs on a worker thread of its own (scripts/gateway-thread.js). Any
// production adapter whose variable is set (DATABASE_URL, KAFKA_BROKERS, …) is used instead.
'use strict';
require('reflect-metadata');
const path = require('node:path');
const { loadConfig, ConfigError, SERVICES } = require('@platform/config');
const { startEmbeddedPostgres, runningEmbeddedPostgresUrl } = require('@platform/database');
const { getEventBus, closeEventBus } = require('@platform/events');
const { startGatewayThread } = require('./gateway-thread');

const serviceMain = (name) => require(path.join(__dirname, '..', 'services', name, 'dist', 'main.js'));

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }

  const stops = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => console.error(err));
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(0)));
  process.once('SIGTERM', () => void stopAll().then(() => process.exit(0)));

  try {
    if (!config.databaseUrl) {
      if (runningEmbeddedPostgresUrl(config.dataDir)) {
        throw new Error(`Another platform is already running on DATA_DIR ${config.dataDir}`);
      }
      const pg = await startEmbeddedPostgres(config.dataDir, config.pglitePort);
      stops.push(() => pg.stop());
      config = { ...config, databaseUrl: pg.url };
    }
    stops.push(() => closeEventBus());
    for (const { name } of SERVICES) {
      const app = await serviceMain(name).bootstrap(config);
      stops.push(() => app.close());
    }
    const gateway = await startGatewayThread(config); // on a thread of its own: scripts/gateway-thread.js
    stops.push(() => gateway.close());
    await getEventBus(config).start();

    console.log(
      [
        'Video platform is running (embedded mode)',
        `  API (base_url):        http://localhost:${config.apiPort}`,
        `  Playback (stream_url): http://localhost:${config.streamPort}`,
        `  Direct uploads:        ${config.uploads.baseUrl}/upload/{id} (the url of each upload)`,
        `  Data directory:        ${config.dataDir}`,
        `  Health:                http://localhost:${config.apiPort}/healthz`,
      ].join('\n'),
    );
  } catch (err) {
    console.error('Start-up failed:', err instanceof Error ? err.stack : err);
    await stopAll();
    process.exit(1);
  }
}

void main();
