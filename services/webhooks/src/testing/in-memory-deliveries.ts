import { DeliveryAttemptEntity } from '../deliveries/delivery-attempt.entity';
import { ClaimedDelivery, DeliveryEntity, DeliveryTransition, NewDelivery } from '../deliveries/delivery.entity';
import { DeliveryRepository } from '../deliveries/delivery.repository';

type Store = Pick<DeliveryRepository, 'record' | 'claimDue' | 'recordAttempt' | 'attemptsOf' | 'findByIdOrEventId' | 'list'>;

/**
 * DeliveryRepository's contract in memory, for unit tests: the same claim rule as its SQL
 * (due, not leased, and the oldest pending delivery of its object), with the clock of the process.
 */
export class InMemoryDeliveries implements Store {
  readonly rows: DeliveryEntity[] = [];
  readonly attempts: DeliveryAttemptEntity[] = [];
  private seq = 0;

  async record(d: NewDelivery): Promise<boolean> {
    if (this.rows.some((r) => r.eventId === d.eventId)) return false;
    this.rows.push({
      ...d,
      seq: String(++this.seq),
      status: 'pending',
      attemptCount: 0,
      nextAttemptAt: new Date(),
      claimedUntil: null,
      claimToken: null,
      createdAt: new Date(),
      completedAt: null,
    });
    return true;
  }

  async claimDue(limit: number, leaseMs: number, claimToken: string, _holdMs = 0): Promise<ClaimedDelivery[]> {
    const now = Date.now();
    const pending = this.rows.filter((r) => r.status === 'pending');
    const due = pending
      .filter((r) => r.nextAttemptAt!.getTime() <= now && (!r.claimedUntil || r.claimedUntil.getTime() < now))
      .filter((r) => !pending.some((e) => e.objectId === r.objectId && Number(e.seq) < Number(r.seq)))
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || Number(a.seq) - Number(b.seq))
      .slice(0, limit);
    for (const r of due) {
      r.claimedUntil = new Date(now + leaseMs);
      r.claimToken = claimToken;
    }
    return due.map((r) => ({ id: r.id, eventId: r.eventId, objectId: r.objectId, url: r.url, body: r.body, attemptCount: r.attemptCount, claimToken }));
  }

  async recordAttempt(
    d: Pick<ClaimedDelivery, 'id' | 'claimToken'>,
    attempt: Omit<DeliveryAttemptEntity, 'deliveryId'>,
    next: DeliveryTransition,
  ): Promise<boolean> {
    const row = this.rows.find((r) => r.id === d.id && r.claimToken === d.claimToken && r.attemptCount === attempt.number - 1);
    if (!row) return false;
    row.attemptCount = attempt.number;
    row.status = next.status;
    row.nextAttemptAt = next.status === 'pending' ? new Date(Date.now() + next.retryInMs) : null;
    row.completedAt = next.status === 'pending' ? null : new Date();
    row.claimedUntil = null;
    row.claimToken = null;
    this.attempts.push({ ...attempt, deliveryId: d.id });
    return true;
  }

  async attemptsOf(ids: string[]): Promise<DeliveryAttemptEntity[]> {
    return this.attempts
      .filter((a) => ids.includes(a.deliveryId))
      .sort((a, b) => (a.deliveryId < b.deliveryId ? -1 : a.deliveryId > b.deliveryId ? 1 : a.number - b.number));
  }

  async findByIdOrEventId(id: string): Promise<DeliveryEntity | null> {
    return this.rows.find((r) => r.id === id || r.eventId === id) ?? null;
  }

  async list(limit: number, offset: number, objectId?: string): Promise<DeliveryEntity[]> {
    return this.rows
      .filter((r) => objectId === undefined || r.objectId === objectId)
      .sort((a, b) => Number(b.seq) - Number(a.seq))
      .slice(offset, offset + limit);
  }

  byEvent(eventId: string): DeliveryEntity {
    const row = this.rows.find((r) => r.eventId === eventId);
    if (!row) throw new Error(`no delivery for event ${eventId}`);
    return row;
  }
}
