import type { JobPhase } from '../jobs/job.entity';

/** What the worker gives the pipeline for one attempt of one phase of one job. */
export interface JobContext {
  readonly jobId: string;
  readonly assetId: string;
  readonly attempt: number;
  /** `ingest`: download, probe, quick source rendition; `ladder`: the encoded renditions. */
  readonly phase: JobPhase;
  /** Ladder phase: where the ingest phase kept the input (object store); null: the asset's own input. */
  readonly inputKey: string | null;
  /** Aborted when the lease is lost, the asset is deleted or the worker shuts down; the reason says which. */
  readonly signal: AbortSignal;
  /** This attempt's scratch folder (exists, empty); the worker removes it afterwards. */
  readonly workDir: string;
  /**
   * Renews the lease now and throws (the abort reason) when this worker no longer holds the job. Called
   * before every step others can see (master playlist, MarkReady, MarkErrored).
   */
  checkpoint(): Promise<void>;
  /** The asset plays from the quick `source` rendition: job status `playable`. */
  markPlayable(): Promise<void>;
  /** Pid of each ffmpeg/ffprobe started, so one left behind by a crash can be ended later. */
  onChild(pid: number): void;
}

/** How a run ended when it did not throw. A throw means "try again later" (unless the signal was aborted). */
export type PipelineOutcome =
  | { status: 'done' }
  /** The ingest phase is over: the job goes to an encode slot, the input kept at `inputKey` (null: the asset's own). */
  | { status: 'ladder'; inputKey: string | null }
  /** The asset no longer exists. */
  | { status: 'cancelled' }
  /** The asset is (now) errored; `error` is kept on the job. */
  | { status: 'errored'; error: string };

/** The input itself is unusable: the asset is marked errored with these messages, no retry. */
export class InputError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join(' '));
    this.name = 'InputError';
  }
}

export interface PipelineSettings {
  /** HLS segment (and GOP) length, seconds. */
  segmentSeconds: number;
  /** libx264 preset of the ladder, overriding the video quality's (tests: `ultrafast`); unset in service. */
  preset?: string;
  /** Parallel uploads of one variant's segments. */
  uploadConcurrency: number;
}

export const PIPELINE_SETTINGS = Symbol('PIPELINE_SETTINGS');
export const DEFAULT_PIPELINE_SETTINGS: PipelineSettings = { segmentSeconds: 4, uploadConcurrency: 4 };
