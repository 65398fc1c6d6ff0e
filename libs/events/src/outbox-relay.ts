import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventBus, PlatformEvent } from './event-bus.port';

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  payload: PlatformEvent;
}

const BATCH = 100;
const CLEANUP_EVERY_RUNS = 1000;
/**
 * Runs start at most this often. Under load every committed transaction nudges the relay, and a
 * run (transaction, lock, select, update) costs about as much as the change that nudged it;
 * nudges within the interval are served by one run, as a batch. A nudge after a quiet spell
 * still runs at once, so a lone event is not delayed.
 */
export const RELAY_MIN_INTERVAL_MS = 10;

/**
 * Moves committed outbox rows to the bus in id order. One relay per schema works at a
 * time (a transaction-scoped advisory lock), so order per key holds across replicas.
 * A crash between publish and commit republishes: delivery is at least once.
 */
export class OutboxRelay {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private lastRunAt = -Infinity;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private runs = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly bus: EventBus,
    private readonly pollMs: number,
    private readonly minIntervalMs = RELAY_MIN_INTERVAL_MS,
  ) {
    this.logger = new Logger(`OutboxRelay:${schema}`);
  }

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  /** Publish soon: called after a transaction that wrote events commits. */
  nudge(): void {
    if (this.stopped || this.soon) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const wait = this.lastRunAt + this.minIntervalMs - performance.now();
    if (wait > 0) {
      this.soon = setTimeout(() => {
        this.soon = undefined;
        this.nudge();
      }, wait);
      return;
    }
    clearTimeout(this.timer);
    this.lastRunAt = performance.now();
    this.running = this.runOnce()
      .then(() => undefined)
      .catch((err: unknown) => this.logger.warn(`relay run failed, will retry: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.nudge(), this.pollMs);
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.soon);
    await this.running;
  }

  /** One batch; returns how many events were published. */
  async runOnce(): Promise<number> {
    const published = await this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query<
        Array<{
          locked: boolean;
        }>
      >('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [`outbox:${this.schema}`]);
      if (!locked) return [];
      const rows = await manager.query<OutboxRow[]>(
        `SELECT "id", "topic", "key", "payload" FROM "${this.schema}"."outbox" WHERE "published_at" IS NULL ORDER BY "id" LIMIT $1`,
        [BATCH],
      );
      const done: string[] = [];
      for (const row of rows) {
        try {
          await this.bus.publish(row.topic, row.key, row.payload);
        } catch (err) {
          this.logger.warn(`publish of ${row.topic} failed, retrying later: ${err instanceof Error ? err.message : String(err)}`);
          break; // keep order: nothing after a failed row goes first
        }
        done.push(row.id);
      }
      if (done.length > 0) {
        await manager.query(`UPDATE "${this.schema}"."outbox" SET "published_at" = now() WHERE "id" = ANY($1::bigint[])`, [done]);
      }
      return done;
    });
    if (++this.runs % CLEANUP_EVERY_RUNS === 0) await this.cleanup();
    if (published.length === BATCH) this.again = true;
    return published.length;
  }

  private async cleanup(): Promise<void> {
    await this.dataSource.query(`DELETE FROM "${this.schema}"."outbox" WHERE "published_at" < now() - interval '1 day'`);
  }
}
