import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export const JOB_STATUSES = ['queued', 'running', 'playable', 'done', 'errored', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_PHASES = ['ingest', 'ladder'] as const;
/** `ingest`: download, probe, quick source rendition (an ingest slot); `ladder`: the encoded renditions (an encode slot). */
export type JobPhase = (typeof JOB_PHASES)[number];
/** Statuses of a job that still has work to do. */
export const OPEN_STATUSES: readonly JobStatus[] = ['queued', 'running', 'playable'];

/**
 * A transcoding job, in two phases (`ingest`, then `ladder`). `running`: a worker holds the lease;
 * `playable`: a worker holds it and the asset already plays from its quick `source` rendition; then
 * `done`, `errored` or `cancelled` (the asset was deleted).
 */
@Entity({ schema: SCHEMA, name: 'jobs' })
export class JobEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'asset_id', type: 'text', unique: true })
  assetId!: string;

  @Column({ type: 'text' })
  status!: JobStatus;

  @Column({ type: 'text' })
  phase!: JobPhase;

  /** Claims of the current phase so far, the current one included. */
  @Column({ type: 'integer' })
  attempts!: number;

  /** The asset plays from its source rendition (its ladder may wait behind those of assets that do not play yet). */
  @Column({ type: 'boolean' })
  playable!: boolean;

  /** Object-store key of the input the ingest phase kept for the ladder phase (URL inputs). */
  @Column({ name: 'input_key', type: 'text', nullable: true })
  inputKey!: string | null;

  /** `<hostname>:<pid>:<random>` of the worker that holds (or last held) the job. */
  @Column({ type: 'text', nullable: true })
  worker!: string | null;

  @Column({ name: 'lease_expires_at', type: 'timestamptz', nullable: true })
  leaseExpiresAt!: Date | null;

  /** Last failure, for operators (the asset's own `errors` is what users see). */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
