import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { platformMetrics } from '@platform/metrics';
import { JobRepository } from './job.repository';

/** Serves the jobs queue's depth (`transcoder_queue_jobs{phase,status}`), counted in Postgres at each scrape. */
@Injectable()
export class QueueDepthMetric implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop: (() => void) | undefined;

  constructor(@Inject(JobRepository) private readonly jobs: JobRepository) {}

  onApplicationBootstrap(): void {
    this.stop = platformMetrics.transcoderQueue(async () =>
      (await this.jobs.openCounts()).map(({ phase, status, count }) => ({ labels: { phase, status }, value: count })),
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }
}
