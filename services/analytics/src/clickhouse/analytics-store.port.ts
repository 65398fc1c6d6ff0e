/**
 * The port to the analytics store (ClickHouse). Adapters: embedded chDB (`chdb`, a data directory
 * under DATA_DIR) and a ClickHouse server over HTTP (`@clickhouse/client`, CLICKHOUSE_URL). Both
 * run the same SQL text: tables are unqualified (the adapter selects the database), parameters are
 * ClickHouse's typed placeholders `{name:Type}`, bound by the engine (never spliced into the text).
 */
export type StoreParam = string | number | boolean | null | readonly (string | number)[];
export type StoreParams = Readonly<Record<string, StoreParam>>;

export interface AnalyticsStore {
  /** A statement without rows (DDL, ALTER, INSERT … SELECT, OPTIMIZE). */
  command(sql: string, params?: StoreParams): Promise<void>;
  /**
   * The rows of a SELECT as objects (JSON, 64-bit integers as JSON numbers, DateTime64 as
   * `YYYY-MM-DD hh:mm:ss.sss` UTC strings), identical in both adapters.
   */
  query<T = Record<string, unknown>>(sql: string, params?: StoreParams): Promise<T[]>;
  /** Inserts rows (objects keyed by column name) into a table. */
  insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void>;
  /** Resolves true when the store answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Nest injection token of the process's AnalyticsStore. */
export const ANALYTICS_STORE = Symbol('ANALYTICS_STORE');

/** One versioned schema change; applied once, in version order, recorded in `schema_migrations`. */
export interface StoreMigration {
  /** Unique across the service; each module owns a range (store 1–99, views 100–199, deliveries 200–299, exports 300–399). */
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
  /**
   * A query: the statements run only when it returns a row (checked on every attempt), for a
   * migration no statement of which can be made idempotent by itself (a table swap). Recorded either way.
   */
  readonly onlyIf?: string;
}
