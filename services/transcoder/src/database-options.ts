import { ServiceDatabaseOptions } from '@platform/database';
import { JobEntity } from './jobs/job.entity';
import { CreateJobs1732300000100 } from './migrations/1732300000100-create-jobs';
import { SCHEMA } from './schema';

/** No outbox: the transcoder publishes nothing (the assets service emits every asset event). */
export const transcoderDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [JobEntity],
  migrations: [CreateJobs1732300000100],
};
