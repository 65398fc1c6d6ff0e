import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export type PlaybackPolicy = 'public' | 'signed';

@Entity({ schema: SCHEMA, name: 'playback_ids' })
export class PlaybackIdEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'asset_id', type: 'text' })
  assetId!: string;

  @Column({ type: 'text' })
  policy!: PlaybackPolicy;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
