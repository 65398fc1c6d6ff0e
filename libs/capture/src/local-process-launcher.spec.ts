import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CaptureJobSpec, CaptureReport } from './capture-job';
import { LocalProcessLauncher } from './local-process-launcher';

/** A stand-in worker: reports a load, reloads on command, ends on shutdown; `die` makes it exit without a word. */
const WORKER = `
const spec = JSON.parse(process.env.CAPTURE_JOB);
let loads = 1;
process.send({ type: 'page_loaded', loads });
if (spec.url === 'die') process.exit(3);
if (spec.url === 'grandchild') require('node:child_process').spawn('sleep', ['60'], { stdio: 'ignore' });
if (spec.url === 'grandchild') {
  // as playwright starts Chromium: detached, a group of its own, which the worker reports
  const browser = require('node:child_process').spawn('sleep', ['61'], { stdio: 'ignore', detached: true });
  process.send({ type: 'browser', pid: browser.pid });
}
process.on('message', (c) => {
  if (c.type === 'reload') process.send({ type: 'page_loaded', loads: ++loads });
  if (c.type === 'shutdown') process.send({ type: 'ended', reason: 'shut down', failed: false }, () => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
`;

describe('LocalProcessLauncher', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-'));
  const script = path.join(dir, 'worker.js');
  fs.writeFileSync(script, WORKER);
  const launcher = new LocalProcessLauncher(script, 2000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const spec = (jobId: string, url: string) => ({ jobId, url }) as CaptureJobSpec;
  const launch = async (jobId: string, url = 'page') => {
    const reports: CaptureReport[] = [];
    await launcher.launch(spec(jobId, url), (r) => reports.push(r));
    const until = async (n: number) => {
      for (let i = 0; i < 200 && reports.length < n; i++) await new Promise((r) => setTimeout(r, 25));
    };
    return { reports, until };
  };

  it('forwards the worker’s reports, tells it to reload, and on stop resolves once it has ended', async () => {
    const job = await launch('a');
    await job.until(1);
    expect(launcher.running()).toEqual(['a']);
    expect(await launcher.reload('a')).toBe(true);
    await job.until(2);
    await launcher.stop('a');
    expect(job.reports).toEqual([
      { type: 'page_loaded', loads: 1 },
      { type: 'page_loaded', loads: 2 },
      { type: 'ended', reason: 'shut down', failed: false },
    ]);
    expect(launcher.running()).toEqual([]);
    expect(await launcher.reload('a')).toBe(false);
  });

  it('reports a worker that dies without a word as ended and failed, once', async () => {
    const job = await launch('b', 'die');
    await job.until(2);
    expect(job.reports).toEqual([
      { type: 'page_loaded', loads: 1 },
      { type: 'ended', reason: 'the capture worker exited (3) without a word', failed: true },
    ]);
  });

  it('refuses a second job of the same id while the first runs', async () => {
    await launch('d');
    await expect(launcher.launch(spec('d', 'page'), () => undefined)).rejects.toThrow('capture job d is still running');
    await launcher.stop('d');
  });

  it('passes the job no credentials of the service’s environment', async () => {
    process.env.DATABASE_URL = 'postgres://secret@db/x';
    const envScript = path.join(dir, 'env-worker.js');
    fs.writeFileSync(envScript, "process.send({ type: 'ended', reason: Object.keys(process.env).sort().join(','), failed: false }, () => process.exit(0));");
    const reports: CaptureReport[] = [];
    const own = new LocalProcessLauncher(envScript, 2000);
    await own.launch(spec('e', 'page'), (r) => reports.push(r));
    for (let i = 0; i < 200 && reports.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    delete process.env.DATABASE_URL;
    const names = (reports[0] as { reason: string }).reason.split(',');
    expect(names).toContain('CAPTURE_JOB');
    expect(names).not.toContain('DATABASE_URL');
  });

  it('adopts nothing (children die with the service) and stops every job when the service stops', async () => {
    expect(await launcher.adopt()).toEqual([]);
    const first = await launch('f');
    const second = await launch('g');
    await Promise.all([first.until(1), second.until(1)]);
    await launcher.close();
    expect(launcher.running()).toEqual([]);
    expect([first.reports.at(-1), second.reports.at(-1)]).toEqual([
      { type: 'ended', reason: 'shut down', failed: false },
      { type: 'ended', reason: 'shut down', failed: false },
    ]);
  });

  it('takes the job’s whole process group down with it, and the browser’s group it reported', async () => {
    const job = await launch('c', 'grandchild');
    await job.until(1);
    await new Promise((r) => setTimeout(r, 200));
    const groups = launcher.processGroups('c');
    expect(groups).toHaveLength(2);
    // the job's sleeps only: other tests running beside this one may have sleeps of their own
    const sleeps = () =>
      fs
        .readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p) && ['sleep\u000060\u0000', 'sleep\u000061\u0000'].includes(readCmd(p)) && groups.includes(groupOf(p)));
    const before = sleeps();
    expect(before.length).toBe(2);
    await launcher.stop('c');
    await new Promise((r) => setTimeout(r, 200));
    expect(sleeps().filter((p) => before.includes(p))).toEqual([]);
  });
});

/** The process group of a process (the fifth field of /proc/<pid>/stat, after the parenthesised name). */
function groupOf(pid: string): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2]);
  } catch {
    return -1;
  }
}

function readCmd(pid: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
