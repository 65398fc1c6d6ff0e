import { Logger } from '@nestjs/common';
import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { CaptureLauncher } from './capture-launcher';
import { CaptureCommand, CaptureJobSpec, CaptureReport } from './capture-job';

interface RunningJob {
  child: ChildProcess;
  ended: Promise<void>;
}

/** The compiled worker (the service runs from dist; tests from src use the build's copy too). */
export const CAPTURE_WORKER_SCRIPT = path.join(__dirname.replace(/([/\\])src([/\\]capture)$/, '$1dist$2'), 'worker', 'capture-worker.js');

/**
 * Each job is a child process of this service in a process group of its own (detached), so stopping it
 * takes its display, sound server, browser and encoder too; it talks to us over the IPC channel and stops
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

  launch(spec: CaptureJobSpec, onReport: (report: CaptureReport) => void): void {
    const child = fork(this.script, [], {
      env: { ...process.env, CAPTURE_JOB: JSON.stringify(spec) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    let endedReported = false;
    child.on('message', (report: CaptureReport) => {
      if (report.type === 'ended') {
        if (endedReported) return;
        endedReported = true;
      }
      onReport(report);
    });
    const ended = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        this.jobs.delete(spec.jobId);
        this.killGroup(child, 'SIGKILL'); // whatever of the job outlived its worker
        if (!endedReported) {
          endedReported = true;
          onReport({ type: 'ended', reason: `the capture worker exited (${signal ?? code}) without a word`, failed: true });
        }
        resolve();
      });
    });
    child.once('error', (err) => this.logger.error(`capture job ${spec.jobId}: ${err.message}`));
    this.jobs.set(spec.jobId, { child, ended });
  }

  reload(jobId: string): boolean {
    return this.send(jobId, { type: 'reload' });
  }

  async stop(jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (!job) return;
    if (!this.send(jobId, { type: 'shutdown' })) job.child.kill('SIGTERM');
    const timer = setTimeout(() => this.killGroup(job.child, 'SIGKILL'), this.stopGraceMs);
    await job.ended;
    clearTimeout(timer);
  }

  running(): string[] {
    return [...this.jobs.keys()];
  }

  /** The process group a job runs in (its worker's pid): what the benchmark measures. */
  processGroup(jobId: string): number | undefined {
    return this.jobs.get(jobId)?.child.pid;
  }

  private send(jobId: string, command: CaptureCommand): boolean {
    const child = this.jobs.get(jobId)?.child;
    if (!child?.connected) return false;
    child.send(command);
    return true;
  }

  private killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
  }
}
