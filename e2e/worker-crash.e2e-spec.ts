import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { Client } from 'pg';
import { runningEmbeddedPostgresUrl } from '../libs/database/src/embedded-postgres';
import { settledAsset } from './support/assets';
import { platform, sdk } from './support/context';
import { FileServer, makeClip, serveFiles } from './support/media';
import { RunningPlatform, startPlatform } from './support/platform-process';

jest.setTimeout(300_000);

interface JobRow {
  status: string;
  worker: string | null;
  attempts: number;
}

async function jobOf(databaseUrl: string, assetId: string): Promise<JobRow | undefined> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT status, worker, attempts FROM "transcoder"."jobs" WHERE asset_id = $1', [assetId]);
    return rows[0] as JobRow | undefined;
  } finally {
    await client.end();
  }
}

/** Waits until a worker holds the asset's job and has been encoding for a moment. */
async function runningJob(databaseUrl: () => string, assetId: string): Promise<JobRow> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const job = await jobOf(databaseUrl(), assetId);
    if (job?.status === 'running' && job.worker) {
      await new Promise((r) => setTimeout(r, 1500));
      return job;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job of ${assetId} never started`);
}

const pidOf = (worker: string) => Number(worker.split(':')[1]);

/**
 * A worker killed mid-job: the job is in Postgres with a lease, so once the lease expires
 * another worker (or the restarted one) takes it and the asset still ends `ready`.
 * The input is non-standard so the worker is encoding the ladder, not remuxing, when killed.
 */
describe('a transcoding worker killed mid-job', () => {
  let dir: string;
  let files: FileServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-crash-'));
    await makeClip(dir, 'slow', { seconds: 40, width: 1280, height: 720, fps: 30, videoCodec: 'mpeg4', audioCodec: 'libmp3lame', extension: 'mkv' });
    files = await serveFiles(dir);
  });

  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  if (platform.mode === 'production') {
    it('is restarted (as Kubernetes restarts a pod) and the asset still ends ready', async () => {
      const mux = sdk();
      const databaseUrl = () => JSON.parse(process.env.E2E_PLATFORM_ENV!).DATABASE_URL as string;
      const asset = await mux.video.assets.create({ inputs: [{ url: files.url('slow.mkv') }], playback_policies: ['public'] });
      const job = await runningJob(databaseUrl, asset.id);
      process.kill(pidOf(job.worker!), 'SIGKILL');

      const settled = await settledAsset(mux, asset.id, 240_000);
      expect(settled.status).toBe('ready');
      const after = await jobOf(databaseUrl(), asset.id);
      expect(after?.attempts).toBeGreaterThanOrEqual(2);
      expect(after?.worker).not.toBe(job.worker);
    });
  } else {
    it('is picked up again when the embedded platform restarts on the same data directory', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-crash-data-'));
      const extra = { DATA_DIR: dataDir, TRANSCODER_LEASE_SECONDS: '3', TRANSCODER_POLL_MS: '200' };
      let own: RunningPlatform | undefined = await startPlatform('embedded', extra);
      try {
        const client = (p: RunningPlatform) => new Mux({ tokenId: p.tokenId, tokenSecret: p.tokenSecret, baseURL: p.baseUrl, maxRetries: 0 });
        const asset = await client(own).video.assets.create({ inputs: [{ url: files.url('slow.mkv') }], playback_policies: ['public'] });
        const databaseUrl = () => runningEmbeddedPostgresUrl(dataDir) ?? '';
        const job = await runningJob(databaseUrl, asset.id);
        await own.kill();

        own = await startPlatform('embedded', { ...extra, ...portsOf(own) });
        const settled = await settledAsset(client(own), asset.id, 240_000);
        expect(settled.status).toBe('ready');
        const after = await jobOf(databaseUrl(), asset.id);
        expect(after?.attempts).toBeGreaterThanOrEqual(2);
        expect(after?.worker).not.toBe(job.worker);
      } finally {
        await own?.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});

/** The restarted platform keeps its ports, as a user's restart would. */
function portsOf(p: RunningPlatform): Record<string, string> {
  return Object.fromEntries(Object.entries(p.env).filter(([k]) => k.endsWith('_PORT') || k.endsWith('_GRPC_URL')));
}
