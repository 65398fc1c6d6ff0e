import { Logger } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { GrpcStatus } from '@platform/errors';
import { assetKeys, ObjectStore } from '@platform/storage';
import { JobEntity } from '../jobs/job.entity';
import { JobRepository } from '../jobs/job.repository';
import { AssetProcessing, isRefusal, renditionsFailedWarning } from '../pipeline/asset-processing';
import { keptFilesPrefix } from '../pipeline/input-files';

/** Back-off before a failed attempt is tried again: 5 s, 10 s, 20 s … at most 60 s. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(60, 5 * 2 ** Math.max(0, attempts - 1));
}

type EndStore = Pick<JobRepository, 'renew' | 'finish' | 'requeue'>;

/**
 * How a job held by this worker ends when its pipeline did not end it: out of attempts, or refused by
 * the assets service. Whatever the asset's state, the job ends (nothing is retried for ever), and what
 * the job stored for itself is cleaned up.
 */
export class JobEndings {
  private readonly logger = new Logger('TranscodeWorker');

  constructor(
    private readonly worker: string,
    private readonly jobs: EndStore,
    private readonly assets: AssetProcessing,
    private readonly store: ObjectStore,
    private readonly config: PlatformConfig,
  ) {}

  /** Out of attempts (or a claim found more attempts than allowed: the workers kept dying). */
  async giveUp(job: JobEntity, lastError: string): Promise<void> {
    const attempts = this.config.transcoder.maxAttempts;
    this.logger.warn(`job ${job.id} (asset ${job.assetId}): ${job.phase} given up after ${job.attempts} attempts: ${lastError}`);
    await this.endJob(job, lastError, {
      userMessage: `The input file could not be processed after ${attempts} attempts.`,
      warningReason: `${attempts} attempts failed (${lastError})`,
    });
  }

  /** The assets service refused a call of the pipeline: an answer, not an outage, so asking again cannot change it. */
  async refused(job: JobEntity, message: string): Promise<void> {
    this.logger.warn(`job ${job.id} (asset ${job.assetId}): the assets service refused (${message}); the job ends`);
    await this.endJob(job, `refused by the assets service: ${message}`, { userMessage: 'The input file could not be processed.', warningReason: message });
  }

  /** Ends a job this worker holds as `status` (its pipeline's outcome, or one decided here), then cleans up. */
  async end(job: JobEntity, status: 'done' | 'errored' | 'cancelled', error: string | null): Promise<boolean> {
    if (!(await this.jobs.finish(job.id, this.worker, status, error))) {
      this.logger.warn(`job ${job.id}: ended as ${status} but no longer held; left to its holder`);
      return false;
    }
    // A cancelled job's asset is gone, so are its files; any other end drops only what was kept for the ladder
    // (the input, the watermark image).
    if (status === 'cancelled') await this.removeStoredFiles(job);
    else await this.deleteStored(keptFilesPrefix(job.assetId));
    return true;
  }

  /** The asset is gone: whatever an attempt stored for it goes too (the assets service may have deleted before). */
  async removeStoredFiles(job: JobEntity): Promise<void> {
    await this.deleteStored(assetKeys.prefix(job.assetId));
  }

  /**
   * Ends a job whatever its asset's state: preparing → errored (`unknown`, `userMessage`); ready (it plays
   * from its source rendition) → stays ready, with a video.asset.warning; deleted → job cancelled. Only an
   * unreachable assets service keeps the job (ended again later); a refusal of these calls ends it as is.
   */
  private async endJob(job: JobEntity, error: string, asset: { userMessage: string; warningReason: string }): Promise<void> {
    if (!(await this.jobs.renew(job.id, this.worker, this.config.transcoder.leaseSeconds))) return;
    try {
      const spec = await this.assets.getIngestSpec(job.assetId);
      if (!spec) {
        await this.end(job, 'cancelled', error);
        return;
      }
      if (spec.status === 'ready') await this.assets.reportWarning(job.assetId, renditionsFailedWarning(asset.warningReason));
      else if (spec.status === 'preparing') await this.assets.markErrored(job.assetId, { type: 'unknown', messages: [asset.userMessage] });
    } catch (err) {
      if (isRefusal(err)) return this.endAsItIs(job, err);
      // The assets service is unreachable: keep the job and end it again later.
      await this.jobs.requeue(job.id, this.worker, { error, delaySeconds: retryDelaySeconds(job.attempts), refund: false });
      throw err;
    }
    await this.end(job, 'errored', error);
  }

  /** Ending the job was itself refused (asset gone, or in a state that allows no change): the job ends, the asset as it is. */
  private async endAsItIs(job: JobEntity, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const gone = (err as { code?: unknown }).code === GrpcStatus.NOT_FOUND;
    this.logger.warn(`job ${job.id} (asset ${job.assetId}): the assets service refused (${message}); the job ends, the asset stays as it is`);
    await this.end(job, gone ? 'cancelled' : 'errored', `refused by the assets service: ${message}`);
  }

  private async deleteStored(prefix: string): Promise<void> {
    await this.store.deletePrefix(prefix).catch((err: unknown) => {
      this.logger.warn(`${prefix}: stored files not removed: ${(err as Error).message}`);
    });
  }
}
