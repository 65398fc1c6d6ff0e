import { PlatformConfig } from '@platform/config';
import { DataSource, MixedList, EntitySchema } from 'typeorm';

export interface ServiceDatabaseOptions {
  /** The Postgres schema the service owns; every one of its tables lives there. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
}

/**
 * Opens the service's connection pool and brings its schema up to date. Migrations run
 * under an advisory lock so replicas starting together apply them once. Tables are
 * always schema-qualified, never through search_path: embedded PGlite shares one
 * session between every connection, so a SET would leak into other services.
 */
export async function openDatabase(config: PlatformConfig, options: ServiceDatabaseOptions): Promise<DataSource> {
  if (!config.databaseUrl) throw new Error('DATABASE_URL is not set and no embedded database was started');
  const dataSource = new DataSource({
    type: 'postgres',
    url: config.databaseUrl,
    entities: options.entities,
    migrations: options.migrations,
    schema: options.schema,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    uuidExtension: 'pgcrypto',
    poolSize: config.databasePoolSize,
    extra: { max: config.databasePoolSize, connectionTimeoutMillis: 10_000 },
    applicationName: `video-platform:${options.schema}`,
  });
  await dataSource.initialize();
  try {
    await migrate(dataSource, options.schema);
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  return dataSource;
}

async function migrate(dataSource: DataSource, schema: string): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    try {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]);
    }
  } finally {
    await runner.release();
  }
}
