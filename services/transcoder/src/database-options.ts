import { ServiceDatabaseOptions } from '@platform/database';
import { JobEntity } from './jobs/job.entity';
import { CreateJobs1732300000100 } from './migrations/1732300000100-create-jobs';
import { JobPhases1732300000200 } from './migrations/1732300000200-job-phases';
import { CreateProcessedEvents1732300000300 } from './migrations/1732300000300-create-processed-events';
import { CreateTasks1732310000100 } from './migrations/1732310000100-create-tasks';
import { SCHEMA } from './schema';
import { TaskEntity } from './tasks/task.entity';

/** No outbox: the transcoder publishes nothing (the assets service emits every asset event). */
export const transcoderDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [JobEntity, TaskEntity],
  migrations: [CreateJobs1732300000100, JobPhases1732300000200, CreateProcessedEvents1732300000300, CreateTasks1732310000100],
};
