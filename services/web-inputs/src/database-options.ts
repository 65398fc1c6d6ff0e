import { ServiceDatabaseOptions } from '@platform/database';
import { outboxMigrations } from '@platform/events';
import { CreateWebInputs1732700000100 } from './migrations/1732700000100-create-web-inputs';
import { SCHEMA } from './schema';
import { WebInputEntity } from './web-inputs/web-input.entity';

export const webInputsDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [WebInputEntity],
  migrations: [CreateWebInputs1732700000100, ...outboxMigrations(SCHEMA)],
};
