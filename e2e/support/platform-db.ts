import { Client } from 'pg';
import { runningEmbeddedPostgresUrl } from '../../libs/database/src/embedded-postgres';

/** The database of the platform global setup booted: the e2e Postgres database, or the embedded PGlite's socket. */
export function platformDatabaseUrl(): string {
  const env = JSON.parse(process.env.E2E_PLATFORM_ENV ?? '{}') as Record<string, string>;
  const url = env.DATABASE_URL ?? runningEmbeddedPostgresUrl(process.env.E2E_DATA_DIR ?? '');
  if (!url) throw new Error('cannot find the platform database (E2E_PLATFORM_ENV DATABASE_URL, or pglite.json in E2E_DATA_DIR)');
  return url;
}

/** One short connection to the platform database (PGlite serves one session: never hold it open). */
export async function withPlatformDatabase<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: platformDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
