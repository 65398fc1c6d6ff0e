import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export const JOB_STATUSES = ['queued', 'running', 'playable', 'done', 'errored', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Statuses of a job that still has work to do. */
export const OPEN_STATUSES: readonly JobStatus[] = ['queued', 'running', 'playable'];

/**
 * A transcoding job. `running`: a worker holds the lease; `playable`: the quick `source` rendition is
 * stored and the asset is ready while the ladder is encoded; then `done`, `errored` or `cancelled`
 * (the asset was deleted).
 */
@Entity({ schema: SCHEMA, name: 'jobs' })
export class JobEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'asset_id', type: 'text', unique: true })
  assetId!: string;

  @Column({ type: 'text' })
  status!: JobStatus;

  /** Claims so far, the current one included. */
  @Column({ type: 'integer' })
  attempts!: number;

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
