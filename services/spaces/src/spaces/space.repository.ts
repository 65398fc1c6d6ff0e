import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SpaceEntity, SpaceStatus } from './space.entity';

interface SpaceRow {
  id: string;
  type: string;
  status: SpaceStatus;
  passthrough: string | null;
  active_session_id: string | null;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: SpaceRow | undefined): SpaceEntity | null {
  if (!row) return null;
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    passthrough: row.passthrough,
    activeSessionId: row.active_session_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Spaces in Postgres; status changes are conditional on the status they leave, so racing callers change it once. */
@Injectable()
export class SpaceRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, space: SpaceEntity): Promise<void> {
    await manager.insert(SpaceEntity, space);
  }

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<SpaceEntity | null> {
    return manager.findOne(SpaceEntity, { where: { id } });
  }

  /** The space, its row locked until the transaction ends (what adds a broadcast to it waits for the others). */
  lock(manager: EntityManager, id: string): Promise<SpaceEntity | null> {
    return manager.findOne(SpaceEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Newest first; `offset` rows skipped. */
  list(limit: number, offset: number): Promise<SpaceEntity[]> {
    return this.dataSource.manager.find(SpaceEntity, { order: { createdAt: 'DESC', id: 'DESC' }, take: limit, skip: offset });
  }

  /** Every active space (what a starting service reconciles: nobody is connected to a new process). */
  findActive(): Promise<SpaceEntity[]> {
    return this.dataSource.manager.find(SpaceEntity, { where: { status: 'active' } });
  }

  /** idle → active with a new session id, or active → idle clearing it; null when the space was not in `from`. */
  async transition(manager: EntityManager, id: string, from: SpaceStatus, activeSessionId: string | null): Promise<SpaceEntity | null> {
    const result = await manager
      .createQueryBuilder()
      .update(SpaceEntity)
      .set({ status: from === 'idle' ? 'active' : 'idle', activeSessionId, updatedAt: () => 'now()' })
      .where('id = :id AND status = :from', { id, from })
      .returning('*')
      .execute();
    return fromRow((result.raw as SpaceRow[])[0]);
  }

  /** Deletes the space (and its broadcasts) while idle; answers it as it was, or null when it is not idle or absent. */
  async deleteIdle(manager: EntityManager, id: string): Promise<SpaceEntity | null> {
    const result = await manager.createQueryBuilder().delete().from(SpaceEntity).where(`id = :id AND status = 'idle'`, { id }).returning('*').execute();
    return fromRow((result.raw as SpaceRow[])[0]);
  }
}
