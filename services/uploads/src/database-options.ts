import { ServiceDatabaseOptions } from '@platform/database';
import { outboxMigrations } from '@platform/events';
import { CreateUploads1732500000100 } from './migrations/1732500000100-create-uploads';
import { SCHEMA } from './schema';
import { UploadEntity } from './uploads/upload.entity';

export const uploadsDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [UploadEntity],
  migrations: [CreateUploads1732500000100, ...outboxMigrations(SCHEMA)],
};
