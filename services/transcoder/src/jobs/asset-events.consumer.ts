import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, PlatformEvent, topicOf } from '@platform/events';
import { JobsService } from './jobs.service';

export const CONSUMER_GROUP = 'transcoder';
export const ASSET_CREATED = 'video.asset.created';
export const ASSET_DELETED = 'video.asset.deleted';
/** Assets recorded from a live stream are made by the live service, not transcoded from a file. */
const LIVE_INGEST_TYPES = new Set(['live_rtmp', 'live_srt']);

/**
 * Consumer group `transcoder`: `video.asset.created` queues a job (once per asset, however often the
 * event is delivered), `video.asset.deleted` cancels it. On Kafka the group's members share the events;
 * the jobs table, not the bus, decides which worker runs a job.
 */
@Injectable()
export class AssetEventsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(JobsService) private readonly jobs: JobsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe({
      group: CONSUMER_GROUP,
      topics: [topicOf(ASSET_CREATED), topicOf(ASSET_DELETED)],
      handle: (event) => this.handle(event),
    });
  }

  async handle(event: PlatformEvent): Promise<void> {
    if (event.object.type !== 'asset') return;
    if (event.type === ASSET_CREATED) {
      const data = event.data as { status?: string; ingest_type?: string };
      if (data.ingest_type && LIVE_INGEST_TYPES.has(data.ingest_type)) return;
      if (data.status && data.status !== 'preparing') return;
      await this.jobs.enqueue(event.object.id);
    } else if (event.type === ASSET_DELETED) {
      await this.jobs.cancel(event.object.id);
    }
  }
}
