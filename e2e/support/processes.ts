import { execFileSync } from 'node:child_process';

/** Pid of the child of `parentPid` whose command line contains `needle` (a service of start-services.js). */
export function childPid(parentPid: number, needle: string): number | undefined {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parentPid)], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.includes(needle));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/** Waits until a process with this pid no longer exists. */
export async function gone(pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`process ${pid} still exists after ${timeoutMs} ms`);
}
