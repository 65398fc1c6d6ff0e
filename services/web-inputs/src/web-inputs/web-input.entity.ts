import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export type WebInputStatus = 'idle' | 'launching' | 'streaming';

@Entity({ schema: SCHEMA, name: 'web_inputs' })
export class WebInputEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ name: 'auto_launch', type: 'boolean' })
  autoLaunch!: boolean;

  @Column({ name: 'live_stream_id', type: 'text' })
  liveStreamId!: string;

  @Column({ type: 'text' })
  status!: WebInputStatus;

  @Column({ type: 'text', nullable: true })
  passthrough!: string | null;

  /** The browser's viewport, `WxH`. */
  @Column({ type: 'text' })
  resolution!: string;

  /** Seconds of streaming before an automatic shutdown. */
  @Column({ type: 'integer' })
  timeout!: number;

  /** When the running launch began (a connection from before it is not its publish); null while idle. */
  @Column({ name: 'launched_at', type: 'timestamptz', nullable: true })
  launchedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
