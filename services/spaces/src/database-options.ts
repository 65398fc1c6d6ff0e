import { ServiceDatabaseOptions } from '@platform/database';
import { outboxMigrations } from '@platform/events';
import { BroadcastEntity } from './broadcasts/broadcast.entity';
import { CreateSpaces1732800000100 } from './migrations/1732800000100-create-spaces';
import { SCHEMA } from './schema';
import { SpaceEntity } from './spaces/space.entity';

export const spacesDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [SpaceEntity, BroadcastEntity],
  migrations: [CreateSpaces1732800000100, ...outboxMigrations(SCHEMA)],
};
