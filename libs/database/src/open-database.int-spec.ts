import { randomUUID } from 'node:crypto';
import { loadConfig } from '@platform/config';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { openDatabase } from './open-database';

const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('TEST_DATABASE_URL is not set: run through `npm test` or start scripts/infra/postgres.sh');

describe('openDatabase on real Postgres', () => {
  const schema = `db_test_${randomUUID().slice(0, 8)}`;

  class CreateThings1732200000050 implements MigrationInterface {
    async up(q: QueryRunner): Promise<void> {
      await q.query(`CREATE TABLE "${schema}"."things" ("id" text PRIMARY KEY)`);
    }
    async down(q: QueryRunner): Promise<void> {
      await q.query(`DROP TABLE "${schema}"."things"`);
    }
  }

  it('creates the schema, applies migrations once and records them inside the schema, even with a pool of one', async () => {
    const config = { ...loadConfig({ DATABASE_URL: url }), databasePoolSize: 1 };
    for (let run = 0; run < 2; run++) {
      const ds = await openDatabase(config, { schema, entities: [], migrations: [CreateThings1732200000050] });
      const applied = await ds.query<Array<{ name: string }>>(`SELECT "name" FROM "${schema}"."migrations"`);
      expect(applied.map((m) => m.name)).toEqual(['CreateThings1732200000050']);
      await ds.query(`INSERT INTO "${schema}"."things" VALUES ($1)`, [`run-${run}`]);
      await ds.destroy();
    }
  });

  it('applies migrations once when two services start together', async () => {
    const config = loadConfig({ DATABASE_URL: url });
    const other = `${schema}_b`;
    class CreateOther1732200000060 implements MigrationInterface {
      async up(q: QueryRunner): Promise<void> {
        await q.query(`CREATE TABLE "${other}"."t" ("id" int)`);
      }
      async down(): Promise<void> {}
    }
    const [a, b] = await Promise.all([0, 1].map(() => openDatabase(config, { schema: other, entities: [], migrations: [CreateOther1732200000060] })));
    const applied = await a.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${other}"."migrations"`);
    expect(applied[0].n).toBe(1);
    await Promise.all([a.destroy(), b.destroy()]);
  });
});
