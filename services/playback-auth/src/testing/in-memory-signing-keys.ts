import { EntityManager } from 'typeorm';
import { SigningKeyEntity, SigningKeySummary } from '../signing-keys/signing-key.entity';
import { SigningKeyRepository } from '../signing-keys/signing-key.repository';

/** The repository's contract, kept in memory: deleted keys stay stored but are never read. */
export class InMemorySigningKeys implements Pick<SigningKeyRepository, keyof SigningKeyRepository> {
  readonly rows = new Map<string, SigningKeyEntity>();
  readonly managers: EntityManager[] = [];

  async insert(manager: EntityManager, key: SigningKeyEntity): Promise<void> {
    this.managers.push(manager);
    this.rows.set(key.id, { ...key });
  }

  async findActive(id: string): Promise<SigningKeySummary | null> {
    const key = this.rows.get(id);
    return key && !key.deletedAt ? { id: key.id, createdAt: key.createdAt } : null;
  }

  async listActive(limit: number, offset: number): Promise<SigningKeySummary[]> {
    return [...this.rows.values()]
      .filter((k) => !k.deletedAt)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .slice(offset, offset + limit)
      .map((k) => ({ id: k.id, createdAt: k.createdAt }));
  }

  async findActivePublicKey(id: string): Promise<string | undefined> {
    const key = this.rows.get(id);
    return key && !key.deletedAt ? key.publicKey : undefined;
  }

  async softDelete(manager: EntityManager, id: string, at: Date): Promise<SigningKeySummary | null> {
    this.managers.push(manager);
    const key = this.rows.get(id);
    if (!key || key.deletedAt) return null;
    key.deletedAt = at;
    return { id: key.id, createdAt: key.createdAt };
  }
}
