import { Inject, Injectable } from '@nestjs/common';
import { ProcessedEvents } from '@platform/events';
import { DomainError } from '@platform/errors';
import { newId } from '@platform/ids';
import { common, transcoder } from '@platform/proto';
import { JobEntity } from './job.entity';
import { toJobMessage } from './job.mapper';
import { JobRepository } from './job.repository';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

type Listener<T> = (value: T) => void;

/**
 * Jobs as the rest of the service sees them: created from `video.asset.created`, cancelled by
 * `video.asset.deleted`, read by operators. The worker listens here to start a new job at once
 * (instead of at its next poll) and to stop one whose asset is gone.
 */
@Injectable()
export class JobsService {
  private readonly enqueuedListeners: Array<Listener<string>> = [];
  private readonly cancelledListeners: Array<Listener<JobEntity>> = [];

  constructor(
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(ProcessedEvents) private readonly processed: Pick<ProcessedEvents, 'once'>,
  ) {}

  /**
   * Queues the asset's job for event `eventId` (`video.asset.created`): the job and the record that
   * the event was handled commit together, so a redelivered event does nothing (and the asset id
   * is unique besides). Listeners hear of it once committed.
   */
  async enqueue(assetId: string, eventId: string): Promise<void> {
    let inserted = false;
    await this.processed.once(eventId, async (manager) => void (inserted = await this.jobs.enqueue(newId(), assetId, manager)));
    if (inserted) for (const listener of this.enqueuedListeners) listener(assetId);
  }

  /** Cancels the asset's job for event `eventId` (`video.asset.deleted`), once per event like `enqueue`. */
  async cancel(assetId: string, eventId: string): Promise<void> {
    let cancelled: JobEntity | undefined;
    await this.processed.once(eventId, async (manager) => void (cancelled = await this.jobs.cancelAsset(newId(), assetId, manager)));
    if (cancelled) for (const listener of this.cancelledListeners) listener(cancelled);
  }

  /** An event that asks nothing of this service (a live recording's asset) is recorded like the others. */
  async skip(eventId: string): Promise<void> {
    await this.processed.once(eventId, () => Promise.resolve());
  }

  onEnqueued(listener: Listener<string>): void {
    this.enqueuedListeners.push(listener);
  }

  onCancelled(listener: Listener<JobEntity>): void {
    this.cancelledListeners.push(listener);
  }

  /** By job id, or by asset id. */
  async get(id: string): Promise<transcoder.Job> {
    const job = (await this.jobs.findById(id)) ?? (await this.jobs.findByAssetId(id));
    if (!job) throw DomainError.notFound('Job');
    return toJobMessage(job);
  }

  async list(request: common.PageRequest): Promise<transcoder.JobList> {
    const limit = Math.min(request.limit > 0 ? request.limit : DEFAULT_LIMIT, MAX_LIMIT);
    const page = request.page > 0 ? request.page : 1;
    const jobs = await this.jobs.list(limit, (page - 1) * limit);
    return { items: jobs.map(toJobMessage) };
  }
}
