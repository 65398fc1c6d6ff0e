import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase, runningEmbeddedPostgresUrl, startEmbeddedPostgres } from '@platform/database';
import { DataSource } from 'typeorm';
import { gatewayDatabase } from '../database-options';
import { AccessTokenRepository } from './access-token.repository';
import { AccessTokensService } from './access-tokens.service';
import { parsePermissions, PERMISSIONS } from './permissions';

const USAGE = `Usage:
  npm run token -- create --name <name> --permissions <list>   (list: ${PERMISSIONS.join(',')})
  npm run token -- list
  npm run token -- revoke <id>`;

class UsageError extends Error {}

/**
 * Opens the gateway's database the way the platform would: DATABASE_URL, else the embedded
 * Postgres of a platform running on DATA_DIR, else a PGlite started here and stopped after.
 * Migrations run either way, so the table exists before the platform ever started.
 */
async function withDatabase<T>(config: PlatformConfig, work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  let stopEmbedded: (() => Promise<void>) | undefined;
  let url = config.databaseUrl ?? runningEmbeddedPostgresUrl(config.dataDir);
  if (!url) {
    const embedded = await startEmbeddedPostgres(config.dataDir);
    stopEmbedded = () => embedded.stop();
    url = embedded.url;
  }
  try {
    const dataSource = await openDatabase({ ...config, databaseUrl: url, databasePoolSize: 2 }, gatewayDatabase);
    try {
      return await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await stopEmbedded?.();
  }
}

function createOptions(args: string[]): { name?: string; permissions?: string } {
  try {
    return parseArgs({ args, options: { name: { type: 'string' }, permissions: { type: 'string' } }, strict: true }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function run(args: string[], config: PlatformConfig, out: (line: string) => void): Promise<void> {
  const [command, ...rest] = args;
  const service = (dataSource: DataSource) => new AccessTokensService(new AccessTokenRepository(dataSource), config);
  switch (command) {
    case 'create': {
      const values = createOptions(rest);
      if (!values.permissions) throw new UsageError('create needs --permissions');
      let permissions;
      try {
        permissions = parsePermissions(values.permissions);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      const name = values.name?.trim() || 'unnamed';
      const token = await withDatabase(config, (ds) => service(ds).create(name, permissions));
      out(`Created access token "${name}" with ${permissions.join(', ')}. The secret is shown only now:`);
      out(`ACCESS_TOKEN_ID=${token.id}`);
      out(`ACCESS_TOKEN_SECRET=${token.secret}`);
      return;
    }
    case 'list': {
      const tokens = await withDatabase(config, (ds) => service(ds).list());
      if (tokens.length === 0) out('No access tokens.');
      for (const t of tokens) {
        const state = t.revoked_at ? `revoked ${t.revoked_at.toISOString()}` : 'active';
        out(`${t.id}  ${JSON.stringify(t.name)}  ${t.permissions.join(',')}  created ${t.created_at.toISOString()}  ${state}`);
      }
      return;
    }
    case 'revoke': {
      const [id, extra] = rest;
      if (!id || extra !== undefined) throw new UsageError('revoke needs exactly one token id');
      const revoked = await withDatabase(config, (ds) => service(ds).revoke(id));
      if (!revoked) throw new Error(`No active access token ${id}`);
      out(`Revoked access token ${id} (a running gateway may accept it for up to 30 s more).`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command ${JSON.stringify(command)}` : 'No command given');
  }
}

/** `npm run token -- …`; resolves to the process exit code. */
export async function main(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    await run(args, loadConfig(env), (line) => console.log(line));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
}
