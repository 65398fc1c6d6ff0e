import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { PipelineModule } from '../pipeline/pipeline.module';
import { TranscodeWorker, WORKER_ID } from './transcode-worker';
import { newWorkerId } from './worker-id';

@Module({
  imports: [JobsModule, PipelineModule],
  providers: [TranscodeWorker, { provide: WORKER_ID, useFactory: newWorkerId }],
})
export class WorkerModule {}
