import { DataSource, EntityManager } from 'typeorm';

/**
 * The rows a statement returns. TypeORM answers `[rows, affected]` for UPDATE … RETURNING on Postgres
 * and plain rows otherwise; this gives the rows either way. In `manager`'s transaction when given.
 */
export async function queryRows<Row>(db: DataSource | EntityManager, sql: string, params: unknown[]): Promise<Row[]> {
  const result: Row[] | [Row[], number] = await db.query(sql, params);
  return isUpdateResult(result) ? result[0] : result;
}

function isUpdateResult<Row>(result: Row[] | [Row[], number]): result is [Row[], number] {
  return result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number';
}
