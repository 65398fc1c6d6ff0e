import { AnalyticsStore, StoreMigration } from './analytics-store.port';

/** The migrations of the store layer itself (range 1–99): none yet; the table below is the runner's. */
export const storeMigrations: readonly StoreMigration[] = [];

// ReplacingMergeTree: a version recorded twice (two processes migrating at once) is one row after FINAL.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version UInt32,
  name String,
  applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
) ENGINE = ReplacingMergeTree ORDER BY version`;

/** What runStoreMigrations did. */
export interface MigrationsReport {
  applied: number[];
  alreadyApplied: number[];
}

/**
 * Applies each migration not yet recorded in `schema_migrations`, in version order, and records it
 * once all its statements succeeded. ClickHouse has no transactions, so a crash mid-migration leaves
 * some statements applied and the version unrecorded: the next run repeats the whole migration.
 * That is safe only because every statement is idempotent (`CREATE TABLE IF NOT EXISTS`,
 * `ADD COLUMN IF NOT EXISTS`, …): write them so. Two processes migrating at once may both apply a
 * migration; the same idempotence makes that harmless.
 */
export async function runStoreMigrations(store: AnalyticsStore, migrations: readonly StoreMigration[]): Promise<MigrationsReport> {
  const ordered = checkMigrations(migrations);
  await store.command(CREATE_MIGRATIONS_TABLE);
  const recorded = new Map(
    (await store.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations FINAL')).map((r) => [r.version, r.name]),
  );
  const report: MigrationsReport = { applied: [], alreadyApplied: [] };
  for (const migration of ordered) {
    const name = recorded.get(migration.version);
    if (name !== undefined) {
      if (name !== migration.name) {
        throw new Error(`analytics store migration ${migration.version} is recorded as "${name}" but the code names it "${migration.name}"`);
      }
      report.alreadyApplied.push(migration.version);
      continue;
    }
    const run = migration.onlyIf === undefined || (await store.query(migration.onlyIf)).length > 0;
    for (const statement of run ? migration.statements : []) {
      try {
        await store.command(statement);
      } catch (err) {
        throw new Error(`analytics store migration ${migration.version} (${migration.name}) failed: ${(err as Error).message}`, { cause: err });
      }
    }
    await store.insert('schema_migrations', [{ version: migration.version, name: migration.name }]);
    report.applied.push(migration.version);
  }
  return report;
}

/** The migrations in version order; refuses duplicate or invalid versions and empty migrations. */
export function checkMigrations(migrations: readonly StoreMigration[]): StoreMigration[] {
  const seen = new Map<number, string>();
  for (const m of migrations) {
    if (!Number.isInteger(m.version) || m.version < 1 || m.version > 0xffffffff) {
      throw new Error(`analytics store migration "${m.name}" has an invalid version ${m.version} (a positive integer)`);
    }
    const other = seen.get(m.version);
    if (other !== undefined) throw new Error(`analytics store migrations "${other}" and "${m.name}" share version ${m.version}`);
    if (!m.name.trim() || m.statements.length === 0) throw new Error(`analytics store migration ${m.version} needs a name and statements`);
    seen.set(m.version, m.name);
  }
  return [...migrations].sort((a, b) => a.version - b.version);
}
