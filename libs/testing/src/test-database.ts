import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A new, empty database on the Postgres at TEST_DATABASE_URL, for one test file: its
 * migrations run from scratch and no other file's rows show up in its lists.
 */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    throw new Error(
      'TEST_DATABASE_URL is not set: start Postgres (scripts/infra/postgres.sh start) and export TEST_DATABASE_URL=$(scripts/infra/postgres.sh url)',
    );
  }
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin(base, `CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
