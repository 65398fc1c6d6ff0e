import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SCHEMA } from '../schema';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One webhook to send: the body of one event, to the URL configured when it was recorded. */
@Entity({ schema: SCHEMA, name: 'deliveries' })
export class DeliveryEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** Recording order; within one object it is the order the bus delivered its events in. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ name: 'event_id', type: 'text' })
  eventId!: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ name: 'object_type', type: 'text' })
  objectType!: string;

  @Column({ name: 'object_id', type: 'text' })
  objectId!: string;

  @Column({ type: 'text' })
  url!: string;

  /** The webhook body with `attempts: []`; each POST fills in the attempts made before it. */
  @Column({ type: 'json' })
  body!: Record<string, unknown>;

  @Column({ type: 'text' })
  status!: DeliveryStatus;

  @Column({ name: 'attempt_count', type: 'integer' })
  attemptCount!: number;

  /** Null once delivered or failed. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  /** Lease of the dispatcher sending it now; another may take it over once this passes. */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil!: Date | null;

  @Column({ name: 'claim_token', type: 'text', nullable: true })
  claimToken!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}

/** Where a delivery goes after an attempt: retried after `retryInMs`, or done for good. */
export type DeliveryTransition = { status: 'pending'; retryInMs: number } | { status: 'delivered' | 'failed' };

export type NewDelivery = Pick<DeliveryEntity, 'id' | 'eventId' | 'eventType' | 'objectType' | 'objectId' | 'url' | 'body'>;

/** A delivery this dispatcher holds the lease of. */
export type ClaimedDelivery = Pick<DeliveryEntity, 'id' | 'eventId' | 'objectId' | 'url' | 'body' | 'attemptCount'> & { claimToken: string };
