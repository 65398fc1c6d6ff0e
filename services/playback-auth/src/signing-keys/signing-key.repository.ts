import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { SigningKeyEntity, SigningKeySummary } from './signing-key.entity';

interface SigningKeyRow {
  id: string;
  created_at: Date;
}

/** Signing keys in Postgres. Deleted keys stay as rows but are invisible to every read. */
@Injectable()
export class SigningKeyRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, key: SigningKeyEntity): Promise<void> {
    await manager.insert(SigningKeyEntity, key);
  }

  findActive(id: string): Promise<SigningKeySummary | null> {
    return this.dataSource.manager.findOne(SigningKeyEntity, {
      select: { id: true, createdAt: true },
      where: { id, deletedAt: IsNull() },
    });
  }

  /** Newest first; `offset` rows skipped. */
  listActive(limit: number, offset: number): Promise<SigningKeySummary[]> {
    return this.dataSource.manager.find(SigningKeyEntity, {
      select: { id: true, createdAt: true },
      where: { deletedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
  }

  async findActivePublicKey(id: string): Promise<string | undefined> {
    const key = await this.dataSource.manager.findOne(SigningKeyEntity, {
      select: { publicKey: true },
      where: { id, deletedAt: IsNull() },
    });
    return key?.publicKey;
  }

  /** Marks an active key deleted; returns it, or null when there was no active key with this id. */
  async softDelete(manager: EntityManager, id: string, at: Date): Promise<SigningKeySummary | null> {
    const result = await manager
      .createQueryBuilder()
      .update(SigningKeyEntity)
      .set({ deletedAt: at })
      .where('id = :id AND deleted_at IS NULL', { id })
      .returning('"id", "created_at"')
      .execute();
    const row = (result.raw as SigningKeyRow[])[0];
    return row ? { id: row.id, createdAt: row.created_at } : null;
  }
}
