import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PgliteWireServer } from './pglite-wire/pglite-wire-server';
import { PreparedStatementsClient } from './pglite-wire/prepared-statements-client';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedPostgresFile {
  pid: number;
  port: number;
}

/** TCP connections at once (other processes: the token CLI, tests); in-process ones are not counted. */
const MAX_CONNECTIONS = 64;

const infoFile = (dataDir: string) => path.join(dataDir, 'pglite.json');

/** The embedded databases this process serves, by URL, for its own services to reach in-process. */
const servedHere = new Map<string, PgliteWireServer>();

/**
 * PGlite under DATA_DIR, served on loopback over the Postgres wire protocol so services
 * use the same pg/TypeORM code as in production. Its port is written to DATA_DIR so the
 * token CLI can reach a running platform; services in this process connect in-process.
 */
export async function startEmbeddedPostgres(dataDir: string, port = 0): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(path.join(dataDir, 'pglite'));
  const server = new PgliteWireServer(db);
  const boundPort = await server.listen('127.0.0.1', port, MAX_CONNECTIONS);
  fs.writeFileSync(infoFile(dataDir), JSON.stringify({ pid: process.pid, port: boundPort } satisfies EmbeddedPostgresFile));
  const url = `postgres://postgres:postgres@127.0.0.1:${boundPort}/postgres`;
  servedHere.set(url, server);
  return {
    url,
    async stop() {
      servedHere.delete(url);
      await server.close();
      await db.close();
      fs.rmSync(infoFile(dataDir), { force: true });
    },
  };
}

/**
 * pg pool options that reach the embedded database at this URL inside the process, when this
 * process serves it: in-process sockets, and statements prepared once per connection.
 */
export function inProcessPoolOptions(url: string): { stream: () => NodeJS.ReadWriteStream; Client: typeof PreparedStatementsClient } | undefined {
  const server = servedHere.get(url);
  return server && { stream: () => server.connectInProcess(), Client: PreparedStatementsClient };
}

/** The URL of the embedded Postgres of a platform running on this DATA_DIR, if one runs. */
export function runningEmbeddedPostgresUrl(dataDir: string): string | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(infoFile(dataDir), 'utf8')) as EmbeddedPostgresFile;
    process.kill(info.pid, 0);
    return `postgres://postgres:postgres@127.0.0.1:${info.port}/postgres`;
  } catch {
    return undefined;
  }
}
