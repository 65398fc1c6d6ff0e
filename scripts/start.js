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
const { handleShutdownSignals, useLeanAsyncResourceBind } = require('@platform/grpc');

const serviceMain = (name) => require(path.join(__dirname, '..', 'services', name, 'dist', 'main.js'));

async function main() {
  useLeanAsyncResourceBind(); // this thread's gRPC clients keep no call past a scavenge (libs/grpc/src/async-resource-bind.ts)
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

  // Stopped in this order: the gateway (no new requests; those in flight finish), the bus (events
  // handed over are delivered while every service is still up; later ones stay in their outbox
  // for the next start), each service in reverse order of start (its shutdown hooks stop taking
  // work, hand work back, end their children, let live streams go), the database. At most
  // SHUTDOWN_DEADLINE_MS, then the process exits anyway; child processes still running are
  // killed either way (handleShutdownSignals).
  const stops = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((err) => console.error(err));
  };
  let started;
  const starting = new Promise((resolve) => (started = resolve));
  handleShutdownSignals(async () => {
    await starting; // a signal during the start stops what has started, once it has
    await stopAll();
  });

  try {
    if (!config.databaseUrl) {
      if (runningEmbeddedPostgresUrl(config.dataDir)) {
        throw new Error(`Another platform is already running on DATA_DIR ${config.dataDir}`);
      }
      const pg = await startEmbeddedPostgres(config.dataDir, config.pglitePort);
      stops.push(() => pg.stop());
      config = { ...config, databaseUrl: pg.url };
    }
    for (const { name } of SERVICES) {
      const app = await serviceMain(name).bootstrap(config);
      stops.push(() => app.close());
    }
    stops.push(() => closeEventBus());
    const gateway = await startGatewayThread(config); // on a thread of its own: scripts/gateway-thread.js
    stops.push(() => gateway.close());
    await getEventBus(config).start();

    console.log(
      [
        'Video platform is running (embedded mode)',
        `  API (base_url):        http://localhost:${config.apiPort}`,
        `  Playback (stream_url): http://localhost:${config.streamPort}`,
        `  Images (image_url):    http://localhost:${config.images.port}`,
        `  Beacons (mux-embed):   ${config.collectorBaseUrl} (its beaconCollectionDomain)`,
        `  Direct uploads:        ${config.uploads.baseUrl}/upload/{id} (the url of each upload)`,
        `  Spaces (spaces_url):   http://localhost:${config.spaces.port}/spaces/join?token={join token}`,
        `  Data directory:        ${config.dataDir}`,
        `  Health:                http://localhost:${config.apiPort}/healthz`,
      ].join('\n'),
    );
  } catch (err) {
    console.error('Start-up failed:', err instanceof Error ? err.stack : err);
    await stopAll();
    process.exit(1);
  } finally {
    started();
  }
}

void main();
