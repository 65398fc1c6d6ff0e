import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { AssetRepository } from '../assets/asset.repository';
import { Clock, CLOCK } from '../clock';
import { MasterAccessService } from './master-access.service';

export const SWEEP_BATCH = 100;
/** The longest wait between sweeps; shorter windows (MASTER_ACCESS_SECONDS) are swept every fifth of them, at least every second. */
export const MAX_SWEEP_INTERVAL_MS = 60_000;

/**
 * Temporary masters expire MASTER_ACCESS_SECONDS (spec: 24 hours) after they became ready: master_access
 * returns to `none`, `master` disappears (`video.asset.master.deleted`) and the file goes. The next sweep
 * is due when the soonest known URL expires, and at least every `intervalMs` (for masters made by another
 * replica meanwhile). The playback host checks the expiry itself, so a URL never works past it whatever the
 * sweep's delay. Replicas may sweep at once: each asset is checked again under its lock.
 */
@Injectable()
export class MasterAccessSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('MasterAccessSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(AssetRepository) private readonly assets: Pick<AssetRepository, 'findExpiredMasterIds' | 'nextMasterExpiry'>,
    @Inject(MasterAccessService) private readonly masters: Pick<MasterAccessService, 'expire'>,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** How long at most between sweeps. */
  get intervalMs(): number {
    return Math.min(MAX_SWEEP_INTERVAL_MS, Math.max(1000, (this.config.masterAccessSeconds * 1000) / 5));
  }

  onModuleInit(): void {
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Starts a sweep unless one is running, then schedules the next. */
  tick(): void {
    if (this.running || this.stopped) return;
    this.running = this.sweep()
      .then((count) => {
        if (count > 0) this.logger.log(`${count} temporary master(s) expired`);
        return this.nextDelayMs();
      })
      .catch((err: unknown) => {
        this.logger.error(`sweep failed, retried later: ${err instanceof Error ? err.message : String(err)}`);
        return this.intervalMs;
      })
      .then((delay) => {
        this.running = undefined;
        this.schedule(delay);
      });
  }

  /** Expires every master whose URL has expired; returns how many this sweep expired. */
  async sweep(): Promise<number> {
    let expired = 0;
    for (;;) {
      const ids = await this.assets.findExpiredMasterIds(this.clock.now(), SWEEP_BATCH);
      let batch = 0;
      for (const id of ids) if (await this.masters.expire(id)) batch += 1;
      expired += batch;
      if (ids.length < SWEEP_BATCH || batch === 0) return expired;
    }
  }

  /** Until the soonest known expiry, at most `intervalMs`. */
  async nextDelayMs(): Promise<number> {
    const next = await this.assets.nextMasterExpiry();
    if (!next) return this.intervalMs;
    return Math.min(this.intervalMs, Math.max(0, next.getTime() - this.clock.now().getTime()) + 50);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    // unref: a pending sweep never keeps the process alive
    this.timer = setTimeout(() => this.tick(), delayMs).unref();
  }
}
