import { Module } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, getEventBus, ProcessedEvents } from '@platform/events';
import { DataSource } from 'typeorm';
import { PipelineModule } from '../pipeline/pipeline.module';
import { SCHEMA } from '../schema';
import { newWorkerId } from '../worker/worker-id';
import { TaskHandlersModule } from './task-handlers.module';
import { TaskRepository } from './task.repository';
import { TASKS_CONSUMER_GROUP, TASKS_PROCESSED_EVENTS, TaskTriggersConsumer } from './task-triggers.consumer';
import { TASK_WORKER_ID, TaskWorker } from './task-worker';

/** Asset tasks: the table, the events that queue them, the worker that runs them with their kind's handler. */
@Module({
  imports: [PipelineModule, TaskHandlersModule],
  providers: [
    TaskRepository,
    TaskWorker,
    TaskTriggersConsumer,
    { provide: TASK_WORKER_ID, useFactory: newWorkerId },
    {
      provide: TASKS_PROCESSED_EVENTS,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new ProcessedEvents(dataSource, SCHEMA, TASKS_CONSUMER_GROUP),
    },
    { provide: EVENT_BUS, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => getEventBus(config) },
  ],
  exports: [TaskRepository],
})
export class TasksModule {}
