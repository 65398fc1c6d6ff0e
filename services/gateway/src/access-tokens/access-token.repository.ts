import { Injectable } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { AccessTokenEntity } from './access-token.entity';

export interface NewAccessToken {
  id: string;
  name: string;
  secret_hash: string;
  permissions: string[];
}

/** `gateway.access_tokens`, nothing else. */
@Injectable()
export class AccessTokenRepository {
  private readonly tokens: Repository<AccessTokenEntity>;

  constructor(dataSource: DataSource) {
    this.tokens = dataSource.getRepository(AccessTokenEntity);
  }

  /** The token if it exists and is not revoked. */
  findActive(id: string): Promise<AccessTokenEntity | null> {
    return this.tokens
      .createQueryBuilder('t')
      .select(['t.id', 't.name', 't.secret_hash', 't.permissions', 't.created_at', 't.revoked_at'])
      .where('t.id = :id AND t.revoked_at IS NULL', { id })
      .getOne();
  }

  async insert(token: NewAccessToken): Promise<void> {
    await this.tokens.query(`INSERT INTO "gateway"."access_tokens" ("id", "name", "secret_hash", "permissions") VALUES ($1, $2, $3, $4)`, [
      token.id,
      token.name,
      token.secret_hash,
      token.permissions,
    ]);
  }

  /** Creates the token or makes the existing row with that id match it again (un-revoking it). */
  async upsert(token: NewAccessToken): Promise<void> {
    await this.tokens.query(
      `INSERT INTO "gateway"."access_tokens" ("id", "name", "secret_hash", "permissions") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("id") DO UPDATE SET
         "name" = EXCLUDED."name",
         "secret_hash" = EXCLUDED."secret_hash",
         "permissions" = EXCLUDED."permissions",
         "revoked_at" = NULL`,
      [token.id, token.name, token.secret_hash, token.permissions],
    );
  }

  list(): Promise<AccessTokenEntity[]> {
    return this.tokens
      .createQueryBuilder('t')
      .select(['t.id', 't.name', 't.permissions', 't.created_at', 't.revoked_at'])
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getMany();
  }

  /** Whether a token that was active got revoked now. */
  async revoke(id: string): Promise<boolean> {
    const rows: unknown[] = await this.tokens.query(
      `UPDATE "gateway"."access_tokens" SET "revoked_at" = now() WHERE "id" = $1 AND "revoked_at" IS NULL RETURNING "id"`,
      [id],
    );
    return extractRows(rows).length > 0;
  }
}

/** TypeORM's postgres driver answers an UPDATE … RETURNING with [rows, count]. */
function extractRows(result: unknown[]): unknown[] {
  return Array.isArray(result[0]) ? (result[0] as unknown[]) : result;
}
