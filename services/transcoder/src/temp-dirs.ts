import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Local scratch space of the worker: `${DATA_DIR}/tmp/transcoder/<job id>/attempt-<n>/` holds the
 * downloaded input and ffmpeg's output of one attempt. A fresh folder per attempt keeps an orphaned
 * ffmpeg of a crashed attempt (it outlives a SIGKILLed worker) from writing into the next attempt's files.
 */
export function transcoderTempRoot(dataDir: string): string {
  return join(dataDir, 'tmp', 'transcoder');
}

/** Asset tasks keep their scratch folders apart from jobs' (each kind sweeps its own). */
export function taskTempRoot(dataDir: string): string {
  return join(dataDir, 'tmp', 'transcoder-tasks');
}

export function jobTempDir(dataDir: string, jobId: string, root = transcoderTempRoot(dataDir)): string {
  return join(root, jobId);
}

export function attemptTempDir(dataDir: string, jobId: string, attempt: number, root = transcoderTempRoot(dataDir)): string {
  return join(jobTempDir(dataDir, jobId, root), `attempt-${attempt}`);
}

const PID_FILE = 'child.pid';

/** Notes the pid of the ffmpeg/ffprobe working in `dir`, so a later start can end it if this process dies. */
export async function recordChildPid(dir: string, pid: number): Promise<void> {
  await writeFile(join(dir, PID_FILE), String(pid)).catch(() => undefined);
}

/**
 * Removes a job's scratch folder, first killing any child process a crashed attempt left running in it
 * (Linux: only a process whose command line names that folder, so a reused pid is never hit).
 */
export async function removeJobTemp(dataDir: string, jobId: string, root = transcoderTempRoot(dataDir)): Promise<void> {
  const dir = jobTempDir(dataDir, jobId, root);
  const attempts = await readdir(dir).catch(() => [] as string[]);
  for (const attempt of attempts) await killOrphan(join(dir, attempt));
  await rm(dir, { recursive: true, force: true });
}

/** Job (or task) ids that have a scratch folder. */
export async function jobsWithTemp(dataDir: string, root = transcoderTempRoot(dataDir)): Promise<string[]> {
  return readdir(root).then(
    (names) => names.filter((n) => !n.startsWith('features-')),
    () => [],
  );
}

async function killOrphan(attemptDir: string): Promise<void> {
  const pid = Number(await readFile(join(attemptDir, PID_FILE), 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!cmdline.includes(attemptDir)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
