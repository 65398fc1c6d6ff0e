import { Client } from 'pg';
import { createPgliteDatabase } from '@platform/testing';

jest.setTimeout(60_000);

describe('embedded Postgres (PGlite over the wire protocol)', () => {
  // PGlite runs in a child process from the built library: jest's VM cannot load its WebAssembly.
  let pg: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    pg = await createPgliteDatabase();
  });

  afterAll(async () => {
    await pg?.drop();
  });

  it('keeps each connection’s parameterised queries whole when many connections interleave', async () => {
    const clients = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const c = new Client({ connectionString: pg.url });
        await c.connect();
        return c;
      }),
    );
    const setup = clients[0];
    await setup.query('CREATE TABLE IF NOT EXISTS public.interleave (id int PRIMARY KEY, v text)');
    try {
      // Transactions and two statement shapes with different parameter counts: a Parse of one
      // connection landing between another's Parse and Bind makes Postgres reject the Bind or
      // run the other statement with our parameters.
      const results = await Promise.all(
        clients.map(async (c, n) => {
          const problems: string[] = [];
          for (let i = 0; i < 60; i++) {
            try {
              if (n % 3 === 0) {
                await c.query('BEGIN');
                await c.query('INSERT INTO public.interleave VALUES ($1, $2)', [n * 1000 + i, 'x']);
                await c.query('COMMIT');
              } else if (n % 3 === 1) {
                const { rows } = await c.query('SELECT $1::int + $2::int AS sum, $3::text AS tag', [n, i, `c${n}`]);
                if (rows[0]?.sum !== n + i || rows[0]?.tag !== `c${n}`) problems.push(JSON.stringify(rows[0]));
              } else {
                const { rows } = await c.query('SELECT $1::text AS tag', [`c${n}-${i}`]);
                if (rows[0]?.tag !== `c${n}-${i}`) problems.push(JSON.stringify(rows[0]));
              }
            } catch (err) {
              problems.push((err as Error).message);
              await c.query('ROLLBACK').catch(() => undefined);
            }
          }
          return problems;
        }),
      );
      expect(results.flat()).toEqual([]);
      const { rows } = await setup.query('SELECT count(*)::int AS n FROM public.interleave');
      expect(rows[0].n).toBe(6 * 60);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it('still serves other connections after one disconnects in the middle of a transaction', async () => {
    const a = new Client({ connectionString: pg.url });
    const b = new Client({ connectionString: pg.url });
    await a.connect();
    await b.connect();
    await a.query('BEGIN');
    await a.query('SELECT $1::int AS one', [1]);
    await a.end();
    const { rows } = await b.query('SELECT $1::int AS two', [2]);
    expect(rows[0].two).toBe(2);
    await b.end();
  });
});
