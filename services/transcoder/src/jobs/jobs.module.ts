import { Module } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, getEventBus, ProcessedEvents } from '@platform/events';
import { DataSource } from 'typeorm';
import { SCHEMA } from '../schema';
import { AssetEventsConsumer, CONSUMER_GROUP } from './asset-events.consumer';
import { JobRepository } from './job.repository';
import { JobsGrpcController } from './jobs.grpc-controller';
import { JobsService } from './jobs.service';
import { QueueDepthMetric } from './queue-depth.metric';

@Module({
  controllers: [JobsGrpcController],
  providers: [
    JobsService,
    JobRepository,
    AssetEventsConsumer,
    QueueDepthMetric,
    { provide: ProcessedEvents, inject: [DataSource], useFactory: (dataSource: DataSource) => new ProcessedEvents(dataSource, SCHEMA, CONSUMER_GROUP) },
    // The process's bus (no EventsModule: this service has no outbox, it publishes nothing).
    { provide: EVENT_BUS, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => getEventBus(config) },
  ],
  // the worker claims and finishes jobs through the repository and listens to JobsService
  exports: [JobsService, JobRepository],
})
export class JobsModule {}
