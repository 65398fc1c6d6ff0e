import { PlatformConfig } from '@platform/config';
import { Client } from 'pg';
import { DataSource, EntitySchema, MixedList } from 'typeorm';
import { inProcessPoolOptions } from './embedded-postgres';

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
    extra: { max: config.databasePoolSize, connectionTimeoutMillis: 10_000, ...inProcessPoolOptions(config.databaseUrl) },
    applicationName: `video-platform:${options.schema}`,
  });
  await dataSource.initialize();
  try {
    await migrate(dataSource, config.databaseUrl, options.schema);
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  return dataSource;
}

/**
 * The advisory lock lives on a connection of its own, outside the pool, so migrations
 * can use the pool even when DATABASE_POOL_SIZE is 1.
 */
async function migrate(dataSource: DataSource, databaseUrl: string, schema: string): Promise<void> {
  const lock = new Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    try {
      await lock.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]);
    }
  } finally {
    await lock.end();
  }
}
