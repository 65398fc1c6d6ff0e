import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import { SCHEMA } from '../schema';

export const TASK_STATUSES = ['queued', 'running', 'done', 'errored', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const OPEN_TASK_STATUSES: readonly TaskStatus[] = ['queued', 'running'];

/**
 * Work on an asset besides its transcoding job: one row per (asset, kind, target), e.g. (`a1`,
 * `text_track`, `<track id>`). Asked for again after it ended (a track re-added, MP4s turned on
 * again), the same row is queued again. `running`: a worker holds its lease.
 */
@Entity({ schema: SCHEMA, name: 'tasks' })
@Unique(['assetId', 'kind', 'target'])
export class TaskEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'asset_id', type: 'text' })
  assetId!: string;

  /** Names the handler that runs it (`TaskHandler.kind`). */
  @Column({ type: 'text' })
  kind!: string;

  /** What within the asset (a track id, a rendition name); '' for the asset as a whole. */
  @Column({ type: 'text' })
  target!: string;

  @Column({ type: 'text' })
  status!: TaskStatus;

  /** Waits until the asset's transcoding job has no open phase (it needs the stored renditions). */
  @Column({ name: 'after_ladder', type: 'boolean' })
  afterLadder!: boolean;

  /** Claims so far, the current one included (a hand-back at shutdown or a "later" takes its claim back). */
  @Column({ type: 'integer' })
  attempts!: number;

  /** The claim that holds (or last held) the task: `<worker id>/<claim number>`. */
  @Column({ type: 'text', nullable: true })
  worker!: string | null;

  @Column({ name: 'lease_expires_at', type: 'timestamptz', nullable: true })
  leaseExpiresAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
