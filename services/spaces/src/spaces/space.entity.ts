import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export type SpaceStatus = 'idle' | 'active';

@Entity({ schema: SCHEMA, name: 'spaces' })
export class SpaceEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** Always `server` (spec 2.10: all video travels through the platform). */
  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  status!: SpaceStatus;

  @Column({ type: 'text', nullable: true })
  passthrough!: string | null;

  /** New on every idle → active; null while idle. */
  @Column({ name: 'active_session_id', type: 'text', nullable: true })
  activeSessionId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
