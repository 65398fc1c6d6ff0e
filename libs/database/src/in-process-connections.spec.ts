import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

jest.setTimeout(60_000);

/**
 * The platform's own pools reach embedded PGlite in-process with statements prepared once per
 * connection (inProcessPoolOptions). PGlite cannot load in jest's VM, so the scenario runs in a
 * child process from the built library and reports what it saw as JSON.
 */
const SCENARIO = `
const { Client, Pool } = require('pg');
const { startEmbeddedPostgres, inProcessPoolOptions } = require('@platform/database');
(async () => {
  const pg = await startEmbeddedPostgres(process.argv[1]);
  const options = inProcessPoolOptions(pg.url);
  const pool = new Pool({ connectionString: pg.url, max: 6, ...options });
  const tcp = new Client({ connectionString: pg.url });
  await tcp.connect();
  const mine = "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'p' || $1 || '_%'";
  const report = { problems: [] };
  await pool.query('CREATE TABLE public.t (id int PRIMARY KEY, v text)');
  // many connections interleaving transactions and two statement shapes
  await Promise.all(Array.from({ length: 12 }, async (_, n) => {
    const c = await pool.connect();
    try {
      for (let i = 0; i < 40; i++) {
        if (n % 3 === 0) {
          await c.query('BEGIN');
          await c.query('INSERT INTO public.t VALUES ($1, $2)', [n * 1000 + i, 'x']);
          await c.query('COMMIT');
        } else {
          const { rows } = await c.query('SELECT $1::int + $2::int AS sum, $3::text AS tag', [n, i, 'c' + n]);
          if (rows[0].sum !== n + i || rows[0].tag !== 'c' + n) report.problems.push(JSON.stringify(rows[0]));
        }
      }
    } catch (err) { report.problems.push(err.message); } finally { c.release(); }
  }));
  report.inserted = (await tcp.query('SELECT count(*)::int AS n FROM public.t')).rows[0].n;
  report.preparedWhileOpen = (await tcp.query(mine, [process.pid])).rows[0].n;
  // a connection that leaves inside a transaction: rolled back, the others go on
  const leaver = await pool.connect();
  await leaver.query('BEGIN');
  await leaver.query('INSERT INTO public.t VALUES ($1, $2)', [999999, 'left']);
  leaver.release(new Error('drop this connection'));
  report.afterLeave = (await pool.query('SELECT count(*)::int AS n FROM public.t WHERE id = $1', [999999])).rows[0].n;
  await pool.end();
  await new Promise((r) => setTimeout(r, 50));
  report.preparedAfterEnd = (await tcp.query(mine, [process.pid])).rows[0].n;
  await tcp.end();
  await pg.stop();
  console.log(JSON.stringify(report));
})().catch((err) => { console.error(err); process.exit(1); });
`;

describe('in-process connections to embedded PGlite', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-inproc-'));
  });

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keep queries whole across connections, prepare statements once, and give back transactions and statements when a connection goes', async () => {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', SCENARIO, dir], { cwd: path.resolve(__dirname, '../../..') }, (err, out, errOut) =>
        err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out),
      ),
    );
    const report = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(report).toEqual({
      problems: [],
      inserted: 4 * 40,
      // two parameterised texts on each of the pool's 6 connections at most, at least one each
      preparedWhileOpen: expect.any(Number) as number,
      afterLeave: 0,
      preparedAfterEnd: 0,
    });
    expect(report.preparedWhileOpen).toBeGreaterThanOrEqual(2);
    expect(report.preparedWhileOpen).toBeLessThanOrEqual(6 * 3);
  });
});
