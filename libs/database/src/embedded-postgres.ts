import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { serializeExtendedQueries } from './pglite-query-queue';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedPostgresFile {
  pid: number;
  port: number;
}

/** Connections every service pool may hold at once in the embedded process, with room for the token CLI. */
const MAX_CONNECTIONS = 64;

const infoFile = (dataDir: string) => path.join(dataDir, 'pglite.json');

/**
 * PGlite under DATA_DIR, served on loopback over the Postgres wire protocol so services
 * use the same pg/TypeORM code as in production. Its port is written to DATA_DIR so the
 * token CLI can reach a running platform.
 */
export async function startEmbeddedPostgres(dataDir: string, port = 0): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(path.join(dataDir, 'pglite'));
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: MAX_CONNECTIONS });
  serializeExtendedQueries(server);
  await server.start();
  const address = server.getServerConn();
  const boundPort = Number(address.split(':').pop());
  fs.writeFileSync(infoFile(dataDir), JSON.stringify({ pid: process.pid, port: boundPort } satisfies EmbeddedPostgresFile));
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${boundPort}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
      fs.rmSync(infoFile(dataDir), { force: true });
    },
  };
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
