import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { BroadcastEntity, BroadcastStatus } from './broadcast.entity';

interface BroadcastRow {
  id: string;
  space_id: string;
  live_stream_id: string;
  status: BroadcastStatus;
  layout: string;
  background: string | null;
  resolution: string;
  passthrough: string | null;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: BroadcastRow | undefined): BroadcastEntity | null {
  if (!row) return null;
  return {
    id: row.id,
    spaceId: row.space_id,
    liveStreamId: row.live_stream_id,
    status: row.status,
    layout: row.layout,
    background: row.background,
    resolution: row.resolution,
    passthrough: row.passthrough,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Broadcasts in Postgres, each in its space; status changes are conditional on the status they leave. */
@Injectable()
export class BroadcastRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, broadcast: BroadcastEntity): Promise<void> {
    await manager.insert(BroadcastEntity, broadcast);
  }

  find(spaceId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<BroadcastEntity | null> {
    return manager.findOne(BroadcastEntity, { where: { id, spaceId } });
  }

  /** The broadcasts of each space, oldest first. */
  async ofSpaces(spaceIds: string[], manager: EntityManager = this.dataSource.manager): Promise<Map<string, BroadcastEntity[]>> {
    const bySpace = new Map<string, BroadcastEntity[]>(spaceIds.map((id) => [id, []]));
    if (spaceIds.length === 0) return bySpace;
    const rows = await manager.find(BroadcastEntity, { where: { spaceId: In(spaceIds) }, order: { createdAt: 'ASC', id: 'ASC' } });
    for (const row of rows) bySpace.get(row.spaceId)?.push(row);
    return bySpace;
  }

  /** Every active broadcast (what a starting service reconciles). */
  findActive(): Promise<BroadcastEntity[]> {
    return this.dataSource.manager.find(BroadcastEntity, { where: { status: 'active' } });
  }

  /** Moves the broadcast from `from` to the other status; null when it was not in `from`. */
  async transition(manager: EntityManager, id: string, from: BroadcastStatus): Promise<BroadcastEntity | null> {
    const result = await manager
      .createQueryBuilder()
      .update(BroadcastEntity)
      .set({ status: from === 'idle' ? 'active' : 'idle', updatedAt: () => 'now()' })
      .where('id = :id AND status = :from', { id, from })
      .returning('*')
      .execute();
    return fromRow((result.raw as BroadcastRow[])[0]);
  }

  /** Deletes the broadcast while idle; answers it as it was, or null when it is not idle or absent. */
  async deleteIdle(manager: EntityManager, spaceId: string, id: string): Promise<BroadcastEntity | null> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(BroadcastEntity)
      .where(`id = :id AND space_id = :spaceId AND status = 'idle'`, { id, spaceId })
      .returning('*')
      .execute();
    return fromRow((result.raw as BroadcastRow[])[0]);
  }
}
