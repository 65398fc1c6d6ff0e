import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { readUntil, until } from '@platform/testing';
import { runningEmbeddedPostgresUrl } from '../../libs/database/src/embedded-postgres';

export interface JobRow {
  id: string;
  status: string;
  phase: string;
  worker: string | null;
  attempts: number;
  error: string | null;
  /** lease_expires_at is past (or unset): a queued job may be claimed now. */
  due: boolean;
}

/** The database of the platform global-setup booted (production: its Postgres; embedded: its PGlite socket). */
export function platformDatabaseUrl(): string {
  const env = JSON.parse(process.env.E2E_PLATFORM_ENV ?? '{}') as Record<string, string>;
  return env.DATABASE_URL ?? runningEmbeddedPostgresUrl(process.env.E2E_DATA_DIR ?? '') ?? '';
}

/** The transcoding job of an asset, as the transcoder's table has it. */
export async function jobOf(databaseUrl: string, assetId: string): Promise<JobRow | undefined> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT "id", "status", "phase", "worker", "attempts", "error", COALESCE("lease_expires_at" <= now(), true) AS "due"
         FROM "transcoder"."jobs" WHERE "asset_id" = $1`,
      [assetId],
    );
    return rows[0] as JobRow | undefined;
  } finally {
    await client.end();
  }
}

/** Polls the asset's job until `check` holds; throws at the deadline. */
export async function jobWhen(databaseUrl: () => string, assetId: string, check: (job: JobRow) => boolean, timeoutMs = 60_000): Promise<JobRow> {
  const read = () => jobOf(databaseUrl(), assetId).catch(() => undefined); // a restarting embedded platform has no socket for a moment
  const reached = (job: JobRow | undefined): job is JobRow => job !== undefined && check(job);
  const last = await readUntil(read, reached, { timeoutMs, intervalMs: 100 });
  if (reached(last)) return last;
  throw new Error(`the job of ${assetId} never got there (last: ${JSON.stringify(last)})`);
}

/** The pid in a worker id (`<hostname>:<pid>:<random>`). */
export const pidOfWorker = (worker: string): number => Number(worker.split(':')[1]);

/** ffmpeg/ffprobe processes whose command line names `needle` (a job's scratch folder), as `pid ppid args` lines. */
export function mediaProcessesNaming(needle: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => /ff(mpeg|probe)/.test(l) && l.includes(needle));
}

/**
 * Waits until the ladder's ffmpeg (libx264, working in the job's scratch folder) runs: true. With `ended`,
 * false as soon as it says the job ended instead (a claim past the last attempt gives up without encoding).
 */
export async function ladderEncoding(jobId: string, timeoutMs = 120_000, ended?: () => Promise<boolean>): Promise<boolean> {
  const outcome = await until(
    `a ladder ffmpeg of job ${jobId} to run`,
    async () => {
      if (mediaProcessesNaming(jobId).some((p) => p.includes('libx264'))) return 'encoding';
      if (ended && (await ended())) return 'ended';
      return undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
  return outcome === 'encoding';
}
