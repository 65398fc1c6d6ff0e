import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, RegisteredEvent, subscribeEvents } from '@platform/events';
import { JobsService } from './jobs.service';

export const CONSUMER_GROUP = 'transcoder';
export const ASSET_EVENT_TYPES = ['video.asset.created', 'video.asset.deleted'] as const;
/** Assets recorded from a live stream are made by the live service, not transcoded from a file. */
const LIVE_INGEST_TYPES = new Set(['live_rtmp', 'live_srt']);

/**
 * Consumer group `transcoder`: `video.asset.created` queues a job, `video.asset.deleted` cancels it.
 * Each event is validated against the registry first (an invalid one is a dead letter) and handled
 * once: the job change and the event id in `transcoder.processed_events` commit together. On Kafka
 * the group's members share the events; the jobs table, not the bus, decides which worker runs a job.
 */
@Injectable()
export class AssetEventsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(JobsService) private readonly jobs: JobsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await subscribeEvents(this.bus, { group: CONSUMER_GROUP, types: ASSET_EVENT_TYPES, handle: (event) => this.handle(event) });
  }

  async handle(event: RegisteredEvent<(typeof ASSET_EVENT_TYPES)[number]>): Promise<void> {
    if (event.type === 'video.asset.deleted') return this.jobs.cancel(event.object.id, event.id);
    if (LIVE_INGEST_TYPES.has(event.data.ingest_type) || event.data.status !== 'preparing') return this.jobs.skip(event.id);
    await this.jobs.enqueue(event.object.id, event.id);
  }
}
