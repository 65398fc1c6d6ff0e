import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ViewBuilder } from './view-builder';
import { VIEWS_OPTIONS, ViewsOptions } from './views.options';

/** Every `sweepIntervalMs`, closes the views silent for `silenceMs` (one sweep at a time). */
@Injectable()
export class ViewSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ViewSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(ViewBuilder) private readonly builder: ViewBuilder,
    @Inject(VIEWS_OPTIONS) private readonly options: ViewsOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepOnce(), this.options.sweepIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One sweep, unless one is running; failures are logged and retried at the next tick. */
  sweepOnce(): Promise<void> {
    this.running ??= this.builder
      .sweep()
      .then((closed) => {
        if (closed > 0) this.logger.log(`closed ${closed} silent view(s) as dropped`);
      })
      .catch((err: unknown) => this.logger.warn(`view sweep failed: ${(err as Error).message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
