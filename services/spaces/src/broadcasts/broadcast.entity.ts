import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export type BroadcastStatus = 'idle' | 'active';

@Entity({ schema: SCHEMA, name: 'broadcasts' })
export class BroadcastEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'space_id', type: 'text' })
  spaceId!: string;

  @Column({ name: 'live_stream_id', type: 'text' })
  liveStreamId!: string;

  @Column({ type: 'text' })
  status!: BroadcastStatus;

  /** gallery, active-speaker or crop. */
  @Column({ type: 'text' })
  layout!: string;

  /** An image URL drawn behind the participants. */
  @Column({ type: 'text', nullable: true })
  background!: string | null;

  /** The frame size, `WxH`. */
  @Column({ type: 'text' })
  resolution!: string;

  @Column({ type: 'text', nullable: true })
  passthrough!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
