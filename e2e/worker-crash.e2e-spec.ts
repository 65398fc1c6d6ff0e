import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { readUntil } from '@platform/testing';
import { runningEmbeddedPostgresUrl } from '../libs/database/src/embedded-postgres';
import { settledAsset } from './support/assets';
import { platform, sdk } from './support/context';
import { jobOf, jobWhen, ladderEncoding, mediaProcessesNaming, pidOfWorker, platformDatabaseUrl } from './support/jobs';
import { descendantPids } from './support/live-drills';
import { FileServer, makeClip, serveFiles } from './support/media';
import { RunningPlatform, startPlatform } from './support/platform-process';
import { gone } from './support/processes';
import { receivedWebhooks, startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(480_000);

/**
 * kill -9 of a worker as Kubernetes kills its pod: the process and everything it started (its ffmpeg),
 * which a bare SIGKILL of the worker would leave running on this machine to the end of its encode.
 */
function killPod(pid: number): void {
  for (const child of [pid, ...descendantPids(pid)]) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

interface WebhookBody {
  type: string;
  object: { type: string; id: string };
  data: Record<string, unknown> & { id: string; status?: string; warning?: { type: string; message: string } };
}

/** The webhooks of an object in `logFile`, polled until `until` holds (or the time runs out). */
function webhooksOf(logFile: string, objectId: string, until: (types: string[]) => boolean, timeoutMs = 60_000): Promise<WebhookBody[]> {
  const mine = () =>
    receivedWebhooks(logFile)
      .map((w) => JSON.parse(w.body) as WebhookBody)
      .filter((b) => b.object.id === objectId);
  return readUntil(mine, (bodies) => until(bodies.map((b) => b.type)), { timeoutMs, intervalMs: 200 });
}

/**
 * Workers killed mid-job (kill -9, as a crash or an OOM kill) or stopped (SIGTERM, as Kubernetes stops
 * a pod). The job lives in Postgres with a lease, so it is never lost: a SIGKILLed worker's job is taken
 * again once its lease expires; a SIGTERMed worker ends its ffmpeg and hands the job back at once,
 * the attempt not counted; a job whose ladder keeps dying ends, the asset staying ready with a warning.
 */
/** Whether the asset's job has ended errored (read through the platform's database). */
const gaveUp = (databaseUrl: () => string, assetId: string) => async () => (await jobOf(databaseUrl(), assetId).catch(() => undefined))?.status === 'errored';

describe('transcoding workers stopped mid-job', () => {
  let dir: string;
  let files: FileServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-crash-'));
    // non-standard (MPEG-4 Part 2): the worker is encoding the ladder, not remuxing, when stopped
    await makeClip(dir, 'slow', { seconds: 40, width: 1280, height: 720, fps: 30, videoCodec: 'mpeg4', audioCodec: 'libmp3lame', extension: 'mkv' });
    // standard: ready from its source rendition within seconds, then its ladder runs; long enough that a
    // restarted platform on a busy machine cannot finish the ladder before the drill sees it encoding
    await makeClip(dir, 'standard', { seconds: 120, width: 1280, height: 720, fps: 30 });
    files = await serveFiles(dir);
  });

  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  if (platform.mode === 'production') {
    const databaseUrl = platformDatabaseUrl;

    it('kill -9 of the transcoder: it is restarted (as Kubernetes restarts a pod) and the asset still ends ready', async () => {
      const mux = sdk();
      const asset = await mux.video.assets.create({ inputs: [{ url: files.url('slow.mkv') }], playback_policies: ['public'] });
      const job = await jobWhen(databaseUrl, asset.id, (j) => j.phase === 'ladder' && j.status === 'running');
      await ladderEncoding(job.id);
      killPod(pidOfWorker(job.worker!));

      const settled = await settledAsset(mux, asset.id, 240_000);
      expect(settled.status).toBe('ready');
      const after = await jobOf(databaseUrl(), asset.id);
      expect(after?.attempts).toBeGreaterThanOrEqual(2);
      expect(after?.worker).not.toBe(job.worker);
    });

    it('SIGTERM of the transcoder mid-ladder: its ffmpeg ends with it, the job goes back uncounted and is taken at once', async () => {
      const mux = sdk();
      const asset = await mux.video.assets.create({ inputs: [{ url: files.url('slow.mkv') }], playback_policies: ['public'] });
      const job = await jobWhen(databaseUrl, asset.id, (j) => j.phase === 'ladder' && j.status === 'running');
      await ladderEncoding(job.id);
      // the attempts counted up to the SIGTERM (1, or more if a lease ran out on the busy machine before it)
      const { attempts } = (await jobOf(databaseUrl(), asset.id))!;
      const pid = pidOfWorker(job.worker!);
      process.kill(pid, 'SIGTERM');
      await gone(pid, 30_000);
      expect(mediaProcessesNaming(job.id)).toEqual([]); // no orphaned ffmpeg

      const handedBack = await jobOf(databaseUrl(), asset.id);
      // handed back (queued, due now, the SIGTERMed attempt refunded), or already taken by the restarted worker
      if (handedBack?.worker === job.worker) expect(handedBack).toMatchObject({ status: 'queued', attempts: attempts - 1, due: true });
      else expect(handedBack).toMatchObject({ attempts });

      expect((await settledAsset(mux, asset.id, 240_000)).status).toBe('ready');
      const done = await jobWhen(databaseUrl, asset.id, (j) => j.status === 'done');
      expect(done.worker).not.toBe(job.worker);
    });

    it('a ladder whose worker dies three times ends: the asset stays ready from its source, with video.asset.warning', async () => {
      const mux = sdk();
      const asset = await mux.video.assets.create({ inputs: [{ url: files.url('standard.mp4') }], playback_policies: ['public'] });
      const killed: string[] = [];
      let counted = 0;
      while (killed.length < 3) {
        const job = await jobWhen(
          databaseUrl,
          asset.id,
          (j) => j.status === 'errored' || (j.phase === 'ladder' && j.status === 'playable' && !killed.includes(j.worker!)),
          120_000,
        );
        if (job.status === 'errored') break; // a lease lost under load (a restarted worker's slow start) counted an attempt too
        expect(job.attempts).toBeGreaterThan(counted); // each kill costs its attempt
        counted = job.attempts;
        // the claim that passed the last attempt gives up at once, without encoding
        if (!(await ladderEncoding(job.id, 120_000, gaveUp(databaseUrl, asset.id)))) break;
        killPod(pidOfWorker(job.worker!));
        killed.push(job.worker!);
      }
      const ended = await jobWhen(databaseUrl, asset.id, (j) => j.status === 'errored', 120_000);
      // past TRANSCODER_MAX_ATTEMPTS (3): 4, or more when a lease was lost under load besides the kills
      expect(ended.phase).toBe('ladder');
      expect(ended.attempts).toBeGreaterThanOrEqual(4);
      const body = await mux.video.assets.retrieve(asset.id);
      expect(body.status).toBe('ready');
      const hooks = await webhooksOf(process.env.E2E_WEBHOOK_LOG!, asset.id, (types) => types.includes('video.asset.warning'));
      // the data is the asset as GET shows it (nothing changes it after the job ends), with the warning
      expect(hooks.filter((h) => h.type === 'video.asset.warning').map((h) => h.data)).toEqual([
        {
          ...body,
          warning: {
            type: 'renditions_failed',
            message: expect.stringContaining('the asset plays from its source rendition only: 3 attempts failed') as string,
          },
        },
      ]);
      expect(hooks.map((h) => h.type)).not.toContain('video.asset.errored');
    });
  } else {
    let own: RunningPlatform | undefined;
    let receiver: WebhookReceiver | undefined;
    const webhookLog = path.join(os.tmpdir(), `e2e-crash-webhooks-${process.pid}.jsonl`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-crash-data-'));
    const databaseUrl = () => runningEmbeddedPostgresUrl(dataDir) ?? '';
    const client = (p: RunningPlatform) => new Mux({ tokenId: p.tokenId, tokenSecret: p.tokenSecret, baseURL: p.baseUrl, maxRetries: 0 });

    beforeAll(async () => {
      receiver = await startWebhookReceiver(webhookLog);
      own = await startPlatform('embedded', {
        DATA_DIR: dataDir,
        TRANSCODER_LEASE_SECONDS: '3',
        TRANSCODER_POLL_MS: '200',
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: 'crash-e2e-secret',
      });
    });

    afterAll(async () => {
      await own?.stop();
      await receiver?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(webhookLog, { force: true });
    });

    /** The restarted platform keeps its data directory and ports, as a user's restart would. */
    const restart = async () => {
      own = await startPlatform('embedded', { ...own!.env, ...portsOf(own!) });
    };

    it('kill -9 of the platform: the job is picked up again when it restarts on the same data directory', async () => {
      const asset = await client(own!).video.assets.create({ inputs: [{ url: files.url('slow.mkv') }], playback_policies: ['public'] });
      const job = await jobWhen(databaseUrl, asset.id, (j) => j.phase === 'ladder' && j.status === 'running');
      await ladderEncoding(job.id);
      await own!.kill();
      await restart();
      expect((await settledAsset(client(own!), asset.id, 240_000)).status).toBe('ready');
      const after = await jobOf(databaseUrl(), asset.id);
      expect(after?.attempts).toBeGreaterThanOrEqual(2);
      expect(after?.worker).not.toBe(job.worker);
    });

    it('SIGTERM of the platform mid-ladder: its ffmpeg ends with it, the job goes back uncounted and the restart takes it at once', async () => {
      const asset = await client(own!).video.assets.create({ inputs: [{ url: files.url('slow.mkv') }], playback_policies: ['public'] });
      const job = await jobWhen(databaseUrl, asset.id, (j) => j.phase === 'ladder' && j.status === 'running');
      await ladderEncoding(job.id);
      // the attempts counted up to the SIGTERM (1, or more if a lease ran out on the busy machine before it)
      const { attempts } = (await jobOf(databaseUrl(), asset.id))!;
      await own!.stop(); // SIGTERM, and waits for the exit (SIGKILL after 15 s)
      const orphans = mediaProcessesNaming(job.id);
      await restart(); // before any expectation fails, so the next test has a platform
      expect(orphans).toEqual([]); // no orphaned ffmpeg
      // Read at the restart's claim: the SIGTERMed attempt was handed back uncounted, so this claim takes its
      // place. (A lease lost later on this busy 2-core machine may count another; not this drill's point.)
      const retaken = await jobWhen(databaseUrl, asset.id, (j) => j.status === 'done' || (j.status === 'running' && j.worker !== job.worker));
      expect(retaken.attempts).toBe(attempts);
      expect((await settledAsset(client(own!), asset.id, 240_000)).status).toBe('ready');
    });

    it('a ladder whose platform dies three times ends: the asset stays ready from its source, with video.asset.warning', async () => {
      const asset = await client(own!).video.assets.create({ inputs: [{ url: files.url('standard.mp4') }], playback_policies: ['public'] });
      let counted = 0;
      for (let kills = 0; kills < 3; kills++) {
        const job = await jobWhen(
          databaseUrl,
          asset.id,
          (j) => j.status === 'errored' || (j.phase === 'ladder' && j.status === 'playable' && j.attempts > counted),
          120_000,
        );
        if (job.status === 'errored') break; // a lease lost under load (a restarted platform's slow start) counted an attempt too
        counted = job.attempts;
        if (!(await ladderEncoding(job.id, 120_000, gaveUp(databaseUrl, asset.id)))) break;
        await own!.kill();
        await restart();
      }
      const ended = await jobWhen(databaseUrl, asset.id, (j) => j.status === 'errored', 120_000);
      // past TRANSCODER_MAX_ATTEMPTS (3): 4, or more when a lease was lost under load besides the kills
      expect(ended.phase).toBe('ladder');
      expect(ended.attempts).toBeGreaterThanOrEqual(4);
      const body = await client(own!).video.assets.retrieve(asset.id);
      expect(body.status).toBe('ready');
      const hooks = await webhooksOf(webhookLog, asset.id, (types) => types.includes('video.asset.warning'));
      // the data is the asset as GET shows it (nothing changes it after the job ends), with the warning
      expect(hooks.filter((h) => h.type === 'video.asset.warning').map((h) => h.data)).toEqual([
        {
          ...body,
          warning: {
            type: 'renditions_failed',
            message: expect.stringContaining('the asset plays from its source rendition only: 3 attempts failed') as string,
          },
        },
      ]);
      expect(hooks.map((h) => h.type)).not.toContain('video.asset.errored');
    });
  }
});

/** The restarted platform keeps its ports, as a user's restart would. */
function portsOf(p: RunningPlatform): Record<string, string> {
  return Object.fromEntries(Object.entries(p.env).filter(([k]) => k.endsWith('_PORT') || k.endsWith('_GRPC_URL')));
}
