import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Embedded PGlite in a child process, from the built @platform/database (`npm run build` first):
 * PGlite loads its WebAssembly with a dynamic import that jest's VM cannot run.
 */
export async function spawnEmbeddedPostgres(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const lib = join(__dirname, '../../../../libs/database/dist/index.js');
  const script = `require(${JSON.stringify(lib)}).startEmbeddedPostgres(${JSON.stringify(dataDir)}).then((pg) => { console.log(pg.url); process.on('SIGTERM', () => pg.stop().then(() => process.exit(0))); })`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`embedded Postgres exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
