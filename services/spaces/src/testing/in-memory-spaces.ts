import { EntityManager } from 'typeorm';
import { BroadcastEntity, BroadcastStatus } from '../broadcasts/broadcast.entity';
import { BroadcastRepository } from '../broadcasts/broadcast.repository';
import { SpaceEntity, SpaceStatus } from '../spaces/space.entity';
import { SpaceRepository } from '../spaces/space.repository';

const copy = <T extends object>(row: T | undefined): T | null => (row ? { ...row } : null);

/** The spaces repository's behaviour in memory (conditional moves included), for unit tests. */
export class InMemorySpaces implements Pick<SpaceRepository, keyof SpaceRepository> {
  readonly rows = new Map<string, SpaceEntity>();

  constructor(private readonly broadcasts?: InMemoryBroadcasts) {}

  async insert(_manager: EntityManager, space: SpaceEntity): Promise<void> {
    this.rows.set(space.id, { ...space });
  }

  async findById(id: string): Promise<SpaceEntity | null> {
    return copy(this.rows.get(id));
  }

  async lock(_manager: EntityManager, id: string): Promise<SpaceEntity | null> {
    return copy(this.rows.get(id));
  }

  async list(limit: number, offset: number): Promise<SpaceEntity[]> {
    return [...this.rows.values()].slice(offset, offset + limit).map((r) => ({ ...r }));
  }

  async findActive(): Promise<SpaceEntity[]> {
    return [...this.rows.values()].filter((r) => r.status === 'active').map((r) => ({ ...r }));
  }

  async transition(_manager: EntityManager, id: string, from: SpaceStatus, activeSessionId: string | null): Promise<SpaceEntity | null> {
    const row = this.rows.get(id);
    if (!row || row.status !== from) return null;
    row.status = from === 'idle' ? 'active' : 'idle';
    row.activeSessionId = activeSessionId;
    return { ...row };
  }

  async deleteIdle(_manager: EntityManager, id: string): Promise<SpaceEntity | null> {
    const row = this.rows.get(id);
    if (!row || row.status !== 'idle') return null;
    this.rows.delete(id);
    for (const b of this.broadcasts?.rows.values() ?? []) if (b.spaceId === id) this.broadcasts?.rows.delete(b.id);
    return { ...row };
  }
}

/** The broadcasts repository's behaviour in memory, for unit tests. */
export class InMemoryBroadcasts implements Pick<BroadcastRepository, keyof BroadcastRepository> {
  readonly rows = new Map<string, BroadcastEntity>();

  async insert(_manager: EntityManager, broadcast: BroadcastEntity): Promise<void> {
    this.rows.set(broadcast.id, { ...broadcast });
  }

  async find(spaceId: string, id: string): Promise<BroadcastEntity | null> {
    const row = this.rows.get(id);
    return row?.spaceId === spaceId ? { ...row } : null;
  }

  async ofSpaces(spaceIds: string[]): Promise<Map<string, BroadcastEntity[]>> {
    const bySpace = new Map<string, BroadcastEntity[]>(spaceIds.map((id) => [id, []]));
    for (const row of this.rows.values()) bySpace.get(row.spaceId)?.push({ ...row });
    return bySpace;
  }

  async findActive(): Promise<BroadcastEntity[]> {
    return [...this.rows.values()].filter((r) => r.status === 'active').map((r) => ({ ...r }));
  }

  async transition(_manager: EntityManager, id: string, from: BroadcastStatus): Promise<BroadcastEntity | null> {
    const row = this.rows.get(id);
    if (!row || row.status !== from) return null;
    row.status = from === 'idle' ? 'active' : 'idle';
    return { ...row };
  }

  async deleteIdle(_manager: EntityManager, spaceId: string, id: string): Promise<BroadcastEntity | null> {
    const row = this.rows.get(id);
    if (!row || row.spaceId !== spaceId || row.status !== 'idle') return null;
    this.rows.delete(id);
    return { ...row };
  }
}
