import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * How long a process may take to stop after SIGTERM before it exits anyway. The chart's
 * terminationGracePeriodSeconds (30) must exceed it, so Kubernetes never SIGKILLs a pod that is
 * still handing work back.
 */
export const SHUTDOWN_DEADLINE_MS = 20_000;

/** Every descendant of `pid` (children first, then theirs), from /proc (Linux) or `ps`. */
export function descendantsOf(pid: number): number[] {
  const parents = processParents();
  const found: number[] = [];
  let level = [pid];
  while (level.length > 0) {
    const next = [...parents].filter(([, parent]) => level.includes(parent)).map(([child]) => child);
    found.push(...next);
    level = next;
  }
  return found;
}

/** child pid → parent pid of every process this user can see. */
function processParents(): Map<number, number> {
  const parents = new Map<number, number>();
  if (fs.existsSync('/proc/self/stat')) {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        parents.set(Number(entry), ppid);
      } catch {
        // the process ended meanwhile
      }
    }
    return parents;
  }
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' }).split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid) parents.set(pid, ppid);
  }
  return parents;
}

/** SIGKILLs every descendant of this process still running (ffmpeg, recognizers); returns their pids. */
export function killDescendants(pid = process.pid): number[] {
  const pids = descendantsOf(pid);
  for (const child of pids) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  return pids;
}

export interface ShutdownOptions {
  deadlineMs?: number;
  log?(message: string): void;
}

/**
 * SIGTERM and SIGINT handling of a platform process (embedded, one service, or the parent of the
 * service processes): the first signal runs `stop` (every service stops taking work, hands work
 * back, ends its children and closes), then the process exits 0; if `stop` has not finished by the
 * deadline it exits 1 anyway. Either way any child process still running is killed first, so none
 * is orphaned. The handlers stay installed, so a signal repeated (or re-raised by a library) while
 * stopping does not kill the process with the default action; a second SIGINT (Ctrl-C twice) exits
 * at once. Returns the shutdown, for a process that decides to stop by itself.
 */
export function handleShutdownSignals(stop: () => Promise<void>, options: ShutdownOptions = {}): (reason: string) => void {
  const deadlineMs = options.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  const log = (message: string) => (options.log ? options.log(message) : console.error(message));
  let stopping = false;
  const exit = (code: number) => {
    const killed = killDescendants();
    if (killed.length > 0) log(`shutdown: killed ${killed.length} child process(es) still running`);
    process.exit(code);
  };
  const shutdown = (reason: string) => {
    if (stopping) {
      if (reason === 'SIGINT') exit(130);
      return;
    }
    stopping = true;
    log(`shutdown (${reason}): stopping, at most ${Math.round(deadlineMs / 1000)} s`);
    const deadline = setTimeout(() => {
      log(`shutdown: not done after ${Math.round(deadlineMs / 1000)} s; exiting anyway`);
      exit(1);
    }, deadlineMs);
    stop().then(
      () => {
        clearTimeout(deadline);
        exit(0);
      },
      (err: unknown) => {
        clearTimeout(deadline);
        log(`shutdown failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return shutdown;
}
