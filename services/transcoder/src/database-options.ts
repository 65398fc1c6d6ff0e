import { ServiceDatabaseOptions } from '@platform/database';
import { JobEntity } from './jobs/job.entity';
import { CreateJobs1732300000100 } from './migrations/1732300000100-create-jobs';
import { JobPhases1732300000200 } from './migrations/1732300000200-job-phases';
import { CreateProcessedEvents1732300000300 } from './migrations/1732300000300-create-processed-events';
import { SCHEMA } from './schema';

/** No outbox: the transcoder publishes nothing (the assets service emits every asset event). */
export const transcoderDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [JobEntity],
  migrations: [CreateJobs1732300000100, JobPhases1732300000200, CreateProcessedEvents1732300000300],
};
