import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { VIEW_EXPORTS_OPTIONS, ViewExportsOptions } from './view-exports.options';
import { ViewExportsService } from './view-exports.service';

/**
 * Keeps the daily view exports: at start and every `checkMs`, exports each retained day that has
 * none yet (the previous day once it has settled after midnight, and any day missed while down) and
 * deletes the days past retention. Every analytics pod runs it: no lock is needed because exporting
 * a day is idempotent (an atomic replace with the same views) and deleting is too, so two pods that
 * pass the same check at once only do the work twice.
 */
@Injectable()
export class ViewExportScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ViewExportScheduler');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(ViewExportsService) private readonly exports: ViewExportsService,
    @Inject(VIEW_EXPORTS_OPTIONS) private readonly options: ViewExportsOptions,
  ) {}

  onApplicationBootstrap(): void {
    void this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.options.checkMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass, unless one is running; failures are logged and retried at the next tick. */
  runOnce(nowMs = Date.now()): Promise<void> {
    this.running ??= this.pass(nowMs)
      .catch((err: unknown) => this.logger.warn(`view export pass failed: ${(err as Error).message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(nowMs: number): Promise<void> {
    const exported = await this.exports.exportMissingDays(nowMs);
    if (exported.length > 0) this.logger.log(`exported views of ${exported.join(', ')}`);
    const deleted = await this.exports.deleteExpired(nowMs);
    if (deleted.length > 0) this.logger.log(`deleted view exports of ${deleted.join(', ')}`);
  }
}
