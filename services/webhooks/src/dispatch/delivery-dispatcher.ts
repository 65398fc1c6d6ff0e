import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { newId } from '@platform/ids';
import { ClaimedDelivery } from '../deliveries/delivery.entity';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { RetrySettings, transitionAfter } from './retry-schedule';
import { serializeWebhookBody, toWebhookAttempt } from './webhook-body';
import { PostResult, USER_AGENT } from './webhook-poster';
import { platformMetrics } from '@platform/metrics';
import { muxSignature } from './webhook-signature';

export interface DispatcherSettings extends RetrySettings {
  /** WEBHOOK_SECRET; undefined: WEBHOOK_URL is unset and nothing is sent. */
  secret: string | undefined;
  /** Deliveries (hence objects) in flight at once. */
  concurrency: number;
  /** How often to look for due deliveries when nothing woke the loop. */
  pollMs: number;
  /** How long a claimed delivery stays ours: longer than any POST can take. */
  leaseMs: number;
  /** How long a recorded delivery waits before it may be sent, so an object's events are sent in order. */
  orderHoldMs: number;
}

export type DeliveryStore = Pick<DeliveryRepository, 'claimDue' | 'attemptsOf' | 'recordAttempt'>;
export interface Poster {
  post(url: string, body: string, headers: Record<string, string>): Promise<PostResult>;
}

/**
 * The sender loop: claims due deliveries (each the oldest pending one of its object, so
 * an object's webhooks go out strictly in order while other objects proceed), POSTs them
 * signed, and records each attempt with the delivery's next step. Runs on every replica;
 * leases keep them from sending the same delivery at once.
 */
export class DeliveryDispatcher {
  private readonly attempts = platformMetrics.webhookAttempts();
  private readonly logger = new Logger('DeliveryDispatcher');
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** Wake-ups at the retry time of deliveries this replica attempted, so backoff is kept to the poll's precision or better. */
  private readonly wakeups = new Set<NodeJS.Timeout>();
  private claiming: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly store: DeliveryStore,
    private readonly poster: Poster,
    private readonly settings: DispatcherSettings,
    private readonly random: () => number = Math.random,
  ) {}

  start(): void {
    if (this.settings.secret === undefined) return;
    this.stopped = false;
    this.nudge();
  }

  /** Look for due deliveries now: a delivery was recorded or one finished. */
  nudge(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.claiming = this.claimAndSend()
      .catch((err: unknown) => this.logger.warn(`claiming deliveries failed, will retry: ${errorText(err)}`))
      .finally(() => {
        this.claiming = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.nudge(), this.settings.pollMs);
        }
      });
  }

  /** Stops claiming and waits for the POSTs in flight (each bounded by the timeout) to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const wakeup of this.wakeups) clearTimeout(wakeup);
    this.wakeups.clear();
    await this.claiming;
    await Promise.allSettled([...this.inFlight]);
  }

  private async claimAndSend(): Promise<void> {
    const free = this.settings.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await this.store.claimDue(free, this.settings.leaseMs, newId(), this.settings.orderHoldMs);
    for (const delivery of claimed) {
      const sending: Promise<void> = this.send(delivery)
        .catch((err: unknown) => this.logger.warn(`delivery ${delivery.id} not recorded, it is retried once its lease ends: ${errorText(err)}`))
        .finally(() => {
          this.inFlight.delete(sending);
          this.nudge();
        });
      this.inFlight.add(sending);
    }
    if (claimed.length === free) this.again = true; // there may be more due
  }

  private wakeIn(ms: number): void {
    if (this.stopped) return;
    const wakeup = setTimeout(() => {
      this.wakeups.delete(wakeup);
      this.nudge();
    }, ms);
    this.wakeups.add(wakeup);
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    const secret = this.settings.secret!;
    const previous = await this.store.attemptsOf([delivery.id]);
    const body = serializeWebhookBody(
      delivery.body,
      previous.map((a) => toWebhookAttempt(a, this.settings.maxAttempts)),
    );
    const attemptedAt = new Date();
    const result = await this.poster.post(delivery.url, body, {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'mux-signature': muxSignature(secret, body, attemptedAt),
    });
    const number = delivery.attemptCount + 1;
    const next = transitionAfter(number, result.statusCode, this.settings, this.random);
    // delivered (2xx), retried later, or given up on
    this.attempts.inc({ service: 'webhooks', outcome: next.status === 'pending' ? 'retry' : next.status });
    const recorded = await this.store.recordAttempt(
      delivery,
      {
        id: randomUUID(),
        number,
        attemptedAt,
        address: delivery.url,
        responseStatusCode: result.statusCode,
        responseHeaders: result.headers,
        responseBody: result.body,
        error: result.error,
        durationMs: result.durationMs,
      },
      next,
    );
    if (recorded && next.status === 'pending') this.wakeIn(next.retryInMs);
    if (!recorded) {
      this.logger.warn(`lease of delivery ${delivery.id} ran out during attempt ${number}; another dispatcher has it`);
    } else if (next.status === 'failed') {
      this.logger.warn(`gave up on delivery ${delivery.id} (event ${delivery.eventId}) after ${number} attempts`);
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
