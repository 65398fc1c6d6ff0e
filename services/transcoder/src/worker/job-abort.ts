/** Why a running job was stopped (the reason of its AbortSignal). */
export type JobAbortKind =
  /** Another worker holds the job now (this one's lease expired): touch nothing. */
  | 'lease_lost'
  /** The asset was deleted: the job is cancelled and whatever this attempt stored is removed. */
  | 'cancelled'
  /** This worker is shutting down: the job goes back to the queue at once, the attempt not counted. */
  | 'shutdown';

export class JobAbort extends Error {
  constructor(
    readonly kind: JobAbortKind,
    detail?: string,
  ) {
    super(detail ? `${kind}: ${detail}` : kind);
    this.name = 'JobAbort';
  }
}

export function jobAbortOf(signal: AbortSignal): JobAbort | undefined {
  return signal.aborted && signal.reason instanceof JobAbort ? signal.reason : undefined;
}
