import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { UnitOfWork } from '@platform/events';
import { CLOCK, Clock } from '../clock';
import { UploadEntity } from '../uploads/upload.entity';
import { UploadRepository } from '../uploads/upload.repository';
import { UploadsService } from '../uploads/uploads.service';
import { UploadCompletion } from './upload-completion.service';

const BATCH = 100;
/** A completion this old without its asset is taken as interrupted (the request's own try is long over). */
export const COMPLETION_RETRY_AFTER_MS = 15_000;

/**
 * Every UPLOAD_SWEEP_MS: `waiting` uploads past their timeout become `timed_out` (their bytes are
 * dropped; Mux has no webhook for this), and completions left half-done are finished. Each row is
 * re-checked under its lock, so replicas sweeping at once change it once.
 */
@Injectable()
export class UploadSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('UploadSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(UploadRepository) private readonly uploads: UploadRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(UploadsService) private readonly service: UploadsService,
    @Inject(UploadCompletion) private readonly completion: UploadCompletion,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .catch((err: unknown) => this.logger.warn(`sweep failed: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => (this.running = undefined));
    }, this.config.uploads.sweepMs);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async sweep(): Promise<void> {
    const now = this.clock.now();
    for (const id of await this.uploads.findExpiredIds(now, BATCH)) {
      const expired = await this.expire(id, now);
      if (expired) await this.service.dropBytes(expired);
    }
    for (const id of await this.uploads.findUnfinishedCompletionIds(new Date(now.getTime() - COMPLETION_RETRY_AFTER_MS), BATCH)) {
      await this.completion.completeById(id);
    }
  }

  private expire(id: string, now: Date): Promise<UploadEntity | undefined> {
    return this.unitOfWork.run(async (manager) => {
      const upload = await this.uploads.lockById(manager, id);
      if (!upload || upload.status !== 'waiting' || upload.completedAt || upload.expiresAt > now) return undefined;
      return (await this.uploads.update(manager, id, { status: 'timed_out', updatedAt: now })) ?? undefined;
    });
  }
}
