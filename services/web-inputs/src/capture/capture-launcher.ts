import { CaptureJobSpec, CaptureReport } from './capture-job';

/** Where capture jobs run: child processes here (LocalProcessLauncher), or Pods on a cluster. */
export interface CaptureLauncher {
  /** Starts the job; `onReport` hears everything it reports, `ended` last (exactly once, also when it dies). */
  launch(spec: CaptureJobSpec, onReport: (report: CaptureReport) => void): void;
  /** Tells a running job to reload its page; false when no such job runs. */
  reload(jobId: string): boolean;
  /** Stops the job and resolves once it is gone (its `ended` delivered). */
  stop(jobId: string): Promise<void>;
  /** The ids of the jobs running now. */
  running(): string[];
}

export const CAPTURE_LAUNCHER = Symbol('CAPTURE_LAUNCHER');
