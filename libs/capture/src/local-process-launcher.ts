import { Logger } from '@nestjs/common';
import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { CaptureLauncher } from './capture-launcher';
import { CaptureCommand, CaptureJobSpec, CaptureReport } from './capture-job';

interface RunningJob {
  child: ChildProcess;
  ended: Promise<void>;
  /** Chromium's own process group (playwright starts the browser detached, outside the worker's group). */
  browserGroup?: number;
}

/** What of this service's environment a job gets: no credentials reach the worker, the browser or ffmpeg. */
const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];

/** The compiled worker (the service runs from dist; tests from src use the build's copy too). */
export const CAPTURE_WORKER_SCRIPT = path.join(__dirname.replace(/([/\\])src$/, '$1dist'), 'worker', 'capture-worker.js');

/**
 * Each job is a child process of this service in a process group of its own (detached), so stopping it
 * takes its display, sound server and encoder too, and the browser's group, which the worker reports; it talks to us over the IPC channel and stops
 * by itself when that channel closes (this service gone). Used in embedded mode, in production mode
 * outside Kubernetes, and by the tests.
 */
export class LocalProcessLauncher implements CaptureLauncher {
  private readonly logger = new Logger('LocalProcessLauncher');
  private readonly jobs = new Map<string, RunningJob>();

  constructor(
    private readonly script = CAPTURE_WORKER_SCRIPT,
    private readonly stopGraceMs = 20_000,
  ) {}

  /** Refuses a job id that still runs (its worker may not have exited yet). */
  launch(spec: CaptureJobSpec, onReport: (report: CaptureReport) => void): Promise<void> {
    if (this.jobs.has(spec.jobId)) return Promise.reject(new Error(`capture job ${spec.jobId} is still running`));
    const env: NodeJS.ProcessEnv = { CAPTURE_JOB: JSON.stringify(spec) };
    for (const name of PASSED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];
    const child = fork(this.script, [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
    const job: RunningJob = { child, ended: Promise.resolve() };
    // `ended` is held until the worker has exited, so whoever hears it (the web input going idle, a relaunch)
    // never meets a worker still on its way out
    let lastWord: CaptureReport | undefined;
    child.on('message', (report: CaptureReport) => {
      if (report.type === 'browser') job.browserGroup = report.pid;
      else if (report.type === 'ended') lastWord ??= report;
      else onReport(report);
    });
    job.ended = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        const finish = () => {
          if (this.jobs.get(spec.jobId) === job) this.jobs.delete(spec.jobId);
          this.killGroups(job, 'SIGKILL'); // whatever of the job outlived its worker
          onReport(lastWord ?? { type: 'ended', reason: `the capture worker exited (${signal ?? code}) without a word`, failed: true });
          resolve();
        };
        // a last message may still be on its way through the IPC channel
        if (!child.connected) return finish();
        const late = setTimeout(finish, 1000);
        child.once('disconnect', () => {
          clearTimeout(late);
          finish();
        });
      });
    });
    child.on('error', (err) => this.logger.error(`capture job ${spec.jobId}: ${err.message}`));
    this.jobs.set(spec.jobId, job);
    return Promise.resolve();
  }

  reload(jobId: string): Promise<boolean> {
    return Promise.resolve(this.send(jobId, { type: 'reload' }));
  }

  async stop(jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (!job) return;
    if (!this.send(jobId, { type: 'shutdown' })) job.child.kill('SIGTERM');
    const timer = setTimeout(() => this.killGroups(job, 'SIGKILL'), this.stopGraceMs);
    await job.ended;
    clearTimeout(timer);
  }

  running(): string[] {
    return [...this.jobs.keys()];
  }

  /** None: a worker stops by itself when the service that forked it goes (its IPC channel closes). */
  adopt(): Promise<string[]> {
    return Promise.resolve([]);
  }

  /** Children cannot outlive the service: each is stopped, its `ended` delivered. */
  async close(): Promise<void> {
    await Promise.all(this.running().map((id) => this.stop(id)));
  }

  /** The process groups a job runs in (its worker's, and its browser's once started): what the benchmark measures. */
  processGroups(jobId: string): number[] {
    const job = this.jobs.get(jobId);
    return [job?.child.pid, job?.browserGroup].filter((g): g is number => g !== undefined);
  }

  private send(jobId: string, command: CaptureCommand): boolean {
    const child = this.jobs.get(jobId)?.child;
    if (!child?.connected) return false;
    child.send(command, (err) => err && this.logger.warn(`capture job ${jobId}: ${command.type} not delivered: ${err.message}`));
    return true;
  }

  private killGroups(job: RunningJob, signal: NodeJS.Signals): void {
    for (const group of [job.child.pid, job.browserGroup]) {
      if (group === undefined) continue;
      try {
        process.kill(-group, signal);
      } catch {
        // the group is gone already
      }
    }
  }
}
