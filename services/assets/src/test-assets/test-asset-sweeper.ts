import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { AssetRepository } from '../assets/asset.repository';
import { AssetsService } from '../assets/assets.service';
import { Clock, CLOCK } from '../clock';

export const SWEEP_INTERVAL_MS = 60_000;
export const SWEEP_BATCH = 100;

/**
 * Test assets are deleted after TEST_ASSET_TTL_SECONDS (spec: 24 hours), through the same
 * path as DELETE (rows, files, video.asset.deleted). Runs every minute; replicas may sweep
 * at once: each asset is checked again under its row lock, so one another replica (or a user)
 * deleted first, or one no longer eligible, is skipped.
 */
@Injectable()
export class TestAssetSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('TestAssetSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(AssetsService) private readonly service: AssetsService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // unref: a pending sweep never keeps the process alive
    this.timer = setInterval(() => this.tick(), SWEEP_INTERVAL_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Starts a sweep unless one is still running. */
  tick(): void {
    if (this.running) return;
    this.running = this.sweep()
      .then((count) => {
        if (count > 0) this.logger.log(`deleted ${count} expired test asset(s)`);
      })
      .catch((err: unknown) => this.logger.error(`sweep failed, retried in a minute: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Deletes every test asset older than the TTL; returns how many this sweep deleted. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.testAssetTtlSeconds * 1000);
    let deleted = 0;
    for (;;) {
      const ids = await this.assets.findTestAssetIdsCreatedBefore(cutoff, SWEEP_BATCH);
      let batch = 0;
      for (const id of ids) {
        if (await this.service.deleteExpiredTestAsset(id, cutoff)) batch += 1;
      }
      deleted += batch;
      // a full batch of which nothing could be deleted would come back the same: stop
      if (ids.length < SWEEP_BATCH || batch === 0) return deleted;
    }
  }
}
