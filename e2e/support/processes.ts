import { execFileSync } from 'node:child_process';
import { until } from '@platform/testing';

/** Pid of the child of `parentPid` whose command line contains `needle` (a service of start-services.js). */
export function childPid(parentPid: number, needle: string): number | undefined {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parentPid)], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.includes(needle));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/** Waits until a process with this pid no longer exists. */
export async function gone(pid: number, timeoutMs = 10_000): Promise<void> {
  const exited = () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  await until(`process ${pid} to exit`, exited, { timeoutMs, intervalMs: 50 });
}

/** Pids of the processes under `rootPid` (children, their children, …) whose command line contains `needle`. */
export function descendantPids(rootPid: number, needle: string): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const rows = out
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const under = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (under.has(r.ppid) && !under.has(r.pid)) {
        under.add(r.pid);
        grew = true;
      }
    }
  }
  return rows.filter((r) => r.pid !== rootPid && under.has(r.pid) && r.args.includes(needle)).map((r) => r.pid);
}
