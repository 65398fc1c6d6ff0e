import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { descendantsOf } from './shutdown';

/** The compiled module (`npm run build` comes first): the child process runs plain Node. */
const SHUTDOWN = join(__dirname, '../dist/shutdown.js');

/** Whether the process still runs (a zombie waiting for its new parent to reap it does not). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

interface Outcome {
  code: number | null;
  signal: string | null;
  ms: number;
  grandchild: number;
  output: string;
}

/**
 * A process using handleShutdownSignals, with a child of its own (as ffmpeg is the live service's)
 * and a library that re-raises SIGTERM from its own handler (as node-media-server's store did).
 */
async function run(stopMs: number, deadlineMs: number): Promise<Outcome> {
  const script = `
    const { spawn } = require('node:child_process');
    const { handleShutdownSignals } = require(${JSON.stringify(SHUTDOWN)});
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    process.once('SIGTERM', () => process.kill(process.pid, 'SIGTERM'));
    handleShutdownSignals(() => new Promise((resolve) => setTimeout(resolve, ${stopMs})), { deadlineMs: ${deadlineMs}, log: (m) => console.log(m) });
    console.log('child ' + child.pid);
  `;
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const grandchild = await new Promise<number>((resolve) =>
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /child (\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    }),
  );
  const started = Date.now();
  proc.kill('SIGTERM');
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => proc.once('exit', (c, s) => resolve([c, s])));
  return { code, signal, ms: Date.now() - started, grandchild, output };
}

describe('handleShutdownSignals', () => {
  it('runs the stop to its end, then exits 0 (a re-raised SIGTERM does not kill it half way), with no child left behind', async () => {
    const outcome = await run(800, 10_000);
    expect(outcome).toMatchObject({ code: 0, signal: null });
    expect(outcome.ms).toBeGreaterThanOrEqual(700);
    expect(outcome.output).toContain('shutdown (SIGTERM): stopping');
    expect(outcome.output).toContain('killed 1 child process(es) still running');
    expect(alive(outcome.grandchild)).toBe(false);
  });

  it('exits 1 at the deadline when the stop hangs, killing its children', async () => {
    const outcome = await run(60_000, 500);
    expect(outcome).toMatchObject({ code: 1, signal: null });
    expect(outcome.output).toContain('not done after 1 s; exiting anyway');
    expect(alive(outcome.grandchild)).toBe(false);
  });
});

describe('descendantsOf', () => {
  it('finds children and their children', async () => {
    const shell = spawn('sh', ['-c', 'sleep 30 & sleep 30 & wait'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    try {
      const mine = descendantsOf(process.pid);
      const theirs = descendantsOf(shell.pid!);
      expect(mine).toContain(shell.pid);
      expect(theirs).toHaveLength(2);
      for (const pid of theirs) expect(mine).toContain(pid);
    } finally {
      for (const pid of descendantsOf(shell.pid!)) process.kill(pid, 'SIGKILL');
      shell.kill('SIGKILL');
    }
  });
});
