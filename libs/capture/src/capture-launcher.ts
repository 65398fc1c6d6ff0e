import { CaptureJobSpec, CaptureReport } from './capture-job';

/** Where capture jobs run: child processes here (LocalProcessLauncher), or a Pod each on a cluster (KubernetesPodLauncher). */
export interface CaptureLauncher {
  /**
   * Starts the job (resolves once it is started: the worker forked, the Pod created; rejects when refused, also for a
   * job id still running); `onReport` hears what the launcher learns of it, `ended` last (exactly once, also when it dies).
   */
  launch(spec: CaptureJobSpec, onReport: (report: CaptureReport) => void): Promise<void>;
  /** Tells a running job to reload its page; false when no such job runs. */
  reload(jobId: string): Promise<boolean>;
  /** Stops the job and resolves once it is gone (its `ended` delivered). */
  stop(jobId: string): Promise<void>;
  /** The ids of the jobs running now. */
  running(): string[];
  /**
   * Takes over the jobs a previous run of this service left running, reporting them to `onReport` from now on, and
   * answers their ids. Pods outlive the service; child processes do not (a worker stops when its IPC channel closes).
   */
  adopt(onReport: (jobId: string, report: CaptureReport) => void): Promise<string[]>;
  /** The service is stopping: jobs that cannot outlive it are stopped; Pods keep running for the next start to adopt. */
  close(): Promise<void>;
}

export const CAPTURE_LAUNCHER = Symbol('CAPTURE_LAUNCHER');
