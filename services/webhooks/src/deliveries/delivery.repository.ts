import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { ClaimedDelivery, DeliveryEntity, DeliveryTransition, NewDelivery } from './delivery.entity';

interface ClaimedRow {
  id: string;
  event_id: string;
  object_id: string;
  url: string;
  body: Record<string, unknown>;
  attempt_count: number;
}

/**
 * The claim of `claimDue` ($1 limit, $2 lease ms, $3 claim token, $4 hold ms); exported for the
 * test that checks its plan walks the pending deliveries in send order.
 */
export const CLAIM_DUE_SQL = `WITH due AS (
  SELECT d."id" FROM "webhooks"."deliveries" d
  WHERE d."status" = 'pending' AND d."next_attempt_at" <= now()
    AND d."created_at" <= now() - $4::double precision * interval '1 millisecond'
    AND (d."claimed_until" IS NULL OR d."claimed_until" < now())
    AND NOT EXISTS (
      SELECT 1 FROM "webhooks"."deliveries" e
      WHERE e."object_id" = d."object_id" AND e."status" = 'pending'
        AND (e."occurred_at", e."seq") < (d."occurred_at", d."seq"))
  ORDER BY d."next_attempt_at", d."occurred_at", d."seq"
  LIMIT $1
  FOR UPDATE SKIP LOCKED)
UPDATE "webhooks"."deliveries" t
  SET "claimed_until" = now() + $2::double precision * interval '1 millisecond', "claim_token" = $3
  FROM due WHERE t."id" = due."id"
  RETURNING t."id", t."event_id", t."object_id", t."url", t."body", t."attempt_count"`;

/**
 * Deliveries and their attempts in Postgres. Every statement stands alone (no transaction
 * spans a POST), so embedded PGlite, which serves all connections from one session, is
 * never held up by a slow receiver.
 */
@Injectable()
export class DeliveryRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Returns false when the event already has its delivery (a redelivered event). */
  async record(delivery: NewDelivery): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `INSERT INTO "webhooks"."deliveries" ("id", "event_id", "event_type", "object_type", "object_id", "url", "body", "occurred_at")
        VALUES ($1, $2, $3, $4, $5, $6, $7::json, COALESCE(($7::json->>'created_at')::timestamptz, now()))
        ON CONFLICT ("event_id") DO NOTHING RETURNING "id"`,
      [delivery.id, delivery.eventId, delivery.eventType, delivery.objectType, delivery.objectId, delivery.url, JSON.stringify(delivery.body)],
    );
    return rows.length === 1;
  }

  /**
   * Leases up to `limit` deliveries that are due, each the earliest pending one of its object by
   * the event's time (a later event of an object waits until every earlier one is delivered or
   * failed). A delivery is due only `holdMs` after it was recorded, so an earlier event of the same
   * object that arrives a little late on its own topic is recorded, and sent, first.
   * SKIP LOCKED and the lease keep two dispatchers from ever holding the same delivery;
   * a lease that ran out (its dispatcher died) is taken over.
   */
  async claimDue(limit: number, leaseMs: number, claimToken: string, holdMs = 0): Promise<ClaimedDelivery[]> {
    const rows = await this.dataSource.query<[ClaimedRow[], number] | ClaimedRow[]>(CLAIM_DUE_SQL, [limit, leaseMs, claimToken, holdMs]);
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count]
    const claimed = (Array.isArray(rows[0]) ? rows[0] : rows) as ClaimedRow[];
    return claimed.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      objectId: r.object_id,
      url: r.url,
      body: r.body,
      attemptCount: r.attempt_count,
      claimToken,
    }));
  }

  /**
   * Stores attempt `number` and moves the delivery on, in one statement, only while the
   * lease is still ours and no other attempt was recorded meanwhile. Returns false when
   * the lease was lost (nothing is written then).
   */
  async recordAttempt(
    delivery: Pick<ClaimedDelivery, 'id' | 'claimToken'>,
    attempt: Omit<DeliveryAttemptEntity, 'deliveryId'>,
    next: DeliveryTransition,
  ): Promise<boolean> {
    const retryInMs = next.status === 'pending' ? next.retryInMs : null;
    const rows = await this.dataSource.query<unknown[]>(
      `WITH moved AS (
          UPDATE "webhooks"."deliveries" SET
            "attempt_count" = $3::integer,
            "status" = $4::text,
            "next_attempt_at" = CASE WHEN $4::text = 'pending' THEN now() + $5::double precision * interval '1 millisecond' END,
            "completed_at" = CASE WHEN $4::text = 'pending' THEN NULL ELSE now() END,
            "claimed_until" = NULL,
            "claim_token" = NULL
          WHERE "id" = $1 AND "claim_token" = $2 AND "attempt_count" = $3::integer - 1
          RETURNING "id")
        INSERT INTO "webhooks"."delivery_attempts"
          ("id", "delivery_id", "number", "attempted_at", "address", "response_status_code", "response_headers", "response_body", "error", "duration_ms")
          SELECT $6, moved."id", $3::integer, $7, $8, $9, $10::json, $11, $12, $13 FROM moved
          RETURNING "id"`,
      [
        delivery.id,
        delivery.claimToken,
        attempt.number,
        next.status,
        retryInMs,
        attempt.id,
        attempt.attemptedAt,
        attempt.address,
        attempt.responseStatusCode,
        attempt.responseHeaders === null ? null : JSON.stringify(attempt.responseHeaders),
        attempt.responseBody,
        attempt.error,
        attempt.durationMs,
      ],
    );
    return rows.length === 1;
  }

  /** By delivery id or event id. */
  findByIdOrEventId(id: string): Promise<DeliveryEntity | null> {
    return this.dataSource.manager.findOne(DeliveryEntity, { where: [{ id }, { eventId: id }] });
  }

  /** Newest first; `offset` rows skipped. */
  list(limit: number, offset: number, objectId?: string): Promise<DeliveryEntity[]> {
    return this.dataSource.manager.find(DeliveryEntity, {
      where: objectId === undefined ? {} : { objectId },
      order: { seq: 'DESC' },
      take: limit,
      skip: offset,
    });
  }

  /** Attempts of these deliveries, oldest first within each. */
  attemptsOf(deliveryIds: string[]): Promise<DeliveryAttemptEntity[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.dataSource.manager.find(DeliveryAttemptEntity, {
      where: { deliveryId: In(deliveryIds) },
      order: { deliveryId: 'ASC', number: 'ASC' },
    });
  }
}
