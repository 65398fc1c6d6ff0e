import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

/** One POST of a delivery and what came back. */
@Entity({ schema: SCHEMA, name: 'delivery_attempts' })
export class DeliveryAttemptEntity {
  /** A UUID, as Mux ids its attempts. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'delivery_id', type: 'text' })
  deliveryId!: string;

  /** 1 for the first POST. */
  @Column({ type: 'integer' })
  number!: number;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt!: Date;

  /** The URL posted to. */
  @Column({ type: 'text' })
  address!: string;

  /** 0 when no response came (connection error, timeout). */
  @Column({ name: 'response_status_code', type: 'integer' })
  responseStatusCode!: number;

  @Column({ name: 'response_headers', type: 'json', nullable: true })
  responseHeaders!: Record<string, string> | null;

  /** The start of the response body (at most RESPONSE_BODY_LIMIT characters). */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;
}
