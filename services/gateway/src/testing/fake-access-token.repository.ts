import { AccessTokenEntity } from '../access-tokens/access-token.entity';
import { NewAccessToken } from '../access-tokens/access-token.repository';

/** In-memory stand-in for AccessTokenRepository (same methods, same semantics). */
export class FakeAccessTokenRepository {
  readonly rows = new Map<string, AccessTokenEntity>();
  lookups = 0;

  async findActive(id: string): Promise<AccessTokenEntity | null> {
    this.lookups++;
    const row = this.rows.get(id);
    return row && !row.revoked_at ? { ...row } : null;
  }

  async insert(token: NewAccessToken): Promise<void> {
    if (this.rows.has(token.id)) throw new Error(`duplicate key ${token.id}`);
    this.rows.set(token.id, { ...token, created_at: new Date(), revoked_at: null });
  }

  async upsert(token: NewAccessToken): Promise<void> {
    const created_at = this.rows.get(token.id)?.created_at ?? new Date();
    this.rows.set(token.id, { ...token, created_at, revoked_at: null });
  }

  async list(): Promise<AccessTokenEntity[]> {
    return [...this.rows.values()];
  }

  async revoke(id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.revoked_at) return false;
    row.revoked_at = new Date();
    return true;
  }
}
