import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { SERVICES } from '../../libs/config/src/services';
import { freePort, readUntil } from '@platform/testing';

export type E2eMode = 'embedded' | 'production';

export interface RunningPlatform {
  mode: E2eMode;
  baseUrl: string;
  streamUrl: string;
  /** The image host ({image_url}): thumbnails, animated images, storyboards. */
  imageUrl: string;
  /** The analytics host: the mux-embed beacon collector (`POST /`) and export downloads. */
  collectorUrl: string;
  /** The spaces real-time host: join page, browser client, compositor and signaling. */
  spacesUrl: string;
  tokenId: string;
  tokenSecret: string;
  env: Record<string, string>;
  logFile: string;
  /** Of the process started (the embedded platform, or start-services.js, parent of one process per service). */
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or an OOM kill: nothing is shut down cleanly. */
  kill(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../..');

async function portsEnv(): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    API_PORT: String(await freePort()),
    STREAM_PORT: String(await freePort()),
    RTMP_PORT: String(await freePort()),
    SRT_PORT: String(await freePort()),
    UPLOAD_PORT: String(await freePort()),
    IMAGE_PORT: String(await freePort()),
    COLLECTOR_PORT: String(await freePort()),
    SPACES_PORT: String(await freePort()),
  };
  for (const s of SERVICES) env[`${s.envPrefix}_GRPC_URL`] = `127.0.0.1:${await freePort()}`;
  return env;
}

/** A fresh database on the test Postgres, so each production-mode run starts empty. */
async function freshDatabase(serverUrl: string): Promise<string> {
  const name = `e2e_${Date.now()}_${process.pid}`;
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function waitHealthy(baseUrl: string, child: ChildProcess, logFile: string, timeoutMs = 90_000): Promise<void> {
  let last = '';
  // an exited platform rejects at once (readUntil does not retry a read that throws)
  const healthy = async () => {
    if (child.exitCode !== null) throw new Error(`platform exited with ${child.exitCode}; log: ${logFile}\n${tail(logFile)}`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      last = `${res.status} ${await res.text()}`;
      return res.status === 200;
    } catch (err) {
      last = String(err);
      return false;
    }
  };
  if (await readUntil(healthy, (ok) => ok, { timeoutMs, intervalMs: 250 })) return;
  throw new Error(`platform not healthy after ${timeoutMs} ms (last: ${last}); log: ${logFile}\n${tail(logFile)}`);
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '';
  }
}

/**
 * Boots the built platform as a user would: `node scripts/start.js` (what `npm start`
 * runs after building) or `node scripts/start-services.js` (one process per service
 * against real Postgres and Kafka).
 */
export async function startPlatform(mode: E2eMode, extraEnv: Record<string, string> = {}): Promise<RunningPlatform> {
  const tokenId = 'e2e-token';
  const tokenSecret = `e2e-secret-${Date.now()}`;
  const dataDir = extraEnv.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'platform-e2e-'));
  const env: Record<string, string> = {
    ...(await portsEnv()),
    DATA_DIR: dataDir,
    ACCESS_TOKEN_ID: tokenId,
    ACCESS_TOKEN_SECRET: tokenSecret,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000',
    RATE_LIMIT_BURST: '1000',
    // delivery usage without the 12-hour reporting lag, reported each second: tests read it at once
    DELIVERY_USAGE_LAG_SECONDS: '0',
    DELIVERY_REPORT_MS: '1000',
    // a today-so-far view export, rewritten every 2 s: the exports test reads the views it just made
    EXPORT_INCLUDE_TODAY: 'true',
    EXPORT_CHECK_MS: '2000',
    // web inputs' browsers captured at 15 fps: two e2e platforms share two cores
    CAPTURE_FPS: '15',
    ...extraEnv,
  };
  if (mode === 'production') {
    const pg = process.env.TEST_DATABASE_URL;
    const kafka = process.env.TEST_KAFKA_BROKERS;
    const s3 = { endpoint: process.env.TEST_S3_ENDPOINT, accessKey: process.env.TEST_S3_ACCESS_KEY, secretKey: process.env.TEST_S3_SECRET_KEY };
    if (!pg || !kafka || !s3.endpoint || !s3.accessKey || !s3.secretKey) {
      throw new Error(
        'production-mode e2e needs TEST_DATABASE_URL, TEST_KAFKA_BROKERS and TEST_S3_ENDPOINT/ACCESS_KEY/SECRET_KEY (scripts/test.sh starts all three servers)',
      );
    }
    env.DATABASE_URL = await freshDatabase(pg);
    env.KAFKA_BROKERS = kafka;
    env.DATABASE_POOL_SIZE = '3';
    env.S3_ENDPOINT = s3.endpoint;
    env.S3_ACCESS_KEY = s3.accessKey;
    env.S3_SECRET_KEY = s3.secretKey;
    // A fresh bucket per run (the services create it on first use), like the fresh database, and
    // topics and consumer groups of its own: two platforms on one broker never take each other's events.
    const run = `e2e-${Date.now()}-${process.pid}`;
    env.S3_BUCKET = run;
    env.KAFKA_NAMESPACE = run;
    const clickhouse = process.env.TEST_CLICKHOUSE_URL;
    if (clickhouse) env.CLICKHOUSE_URL = `${clickhouse.replace(/\/+$/, '')}/${run.replace(/-/g, '_')}`;
  }
  const script = mode === 'embedded' ? 'scripts/start.js' : 'scripts/start-services.js';
  const logFile = path.join(dataDir, `platform-${Date.now()}.log`);
  const log = fs.openSync(logFile, 'a');
  let logOpen = true;
  const closeLog = () => {
    if (logOpen) fs.closeSync(log);
    logOpen = false;
  };
  const child = spawn(process.execPath, [path.join(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', log, log],
    detached: false,
  });
  const baseUrl = `http://127.0.0.1:${env.API_PORT}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    closeLog();
  };
  try {
    await waitHealthy(baseUrl, child, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    closeLog();
  };
  return {
    mode,
    baseUrl,
    streamUrl: `http://127.0.0.1:${env.STREAM_PORT}`,
    imageUrl: `http://127.0.0.1:${env.IMAGE_PORT}`,
    collectorUrl: `http://127.0.0.1:${env.COLLECTOR_PORT}`,
    spacesUrl: `http://127.0.0.1:${env.SPACES_PORT}`,
    tokenId: env.ACCESS_TOKEN_ID,
    tokenSecret: env.ACCESS_TOKEN_SECRET,
    env,
    logFile,
    pid: child.pid!,
    stop,
    kill,
  };
}
