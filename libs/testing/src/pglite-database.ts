import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// PGlite loads its WebAssembly through a dynamic import, which jest's VM cannot run, so
// it is served from a child process, as `npm start` serves it (needs `npm run build`).
const SERVE = `
const { startEmbeddedPostgres } = require('@platform/database');
startEmbeddedPostgres(process.argv[1]).then((pg) => {
  console.log(pg.url);
  process.on('SIGTERM', () => pg.stop().then(() => process.exit(0)));
}, (err) => { console.error(err); process.exit(1); });
`;

/** Embedded PGlite on a temporary data directory, over the Postgres wire protocol. */
export async function createPgliteDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-'));
  const child = spawn(process.execPath, ['-e', SERVE, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('postgres://'));
      if (line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`PGlite exited with ${code} before it was ready`)));
  });
  return {
    url,
    drop: async () => {
      await stop(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
