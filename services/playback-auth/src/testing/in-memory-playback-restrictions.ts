import { EntityManager } from 'typeorm';
import { PlaybackRestrictionEntity } from '../playback-restrictions/playback-restriction.entity';
import { PlaybackRestrictionRepository } from '../playback-restrictions/playback-restriction.repository';

/** The repository's contract, kept in memory. */
export class InMemoryPlaybackRestrictions implements Pick<PlaybackRestrictionRepository, keyof PlaybackRestrictionRepository> {
  readonly rows = new Map<string, PlaybackRestrictionEntity>();
  readonly managers: EntityManager[] = [];

  async insert(manager: EntityManager, restriction: PlaybackRestrictionEntity): Promise<void> {
    this.managers.push(manager);
    this.rows.set(restriction.id, structuredClone(restriction));
  }

  async findById(id: string): Promise<PlaybackRestrictionEntity | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  async list(limit: number, offset: number): Promise<{ items: PlaybackRestrictionEntity[]; total: number }> {
    const all = [...this.rows.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    return { items: all.slice(offset, offset + limit).map((r) => structuredClone(r)), total: all.length };
  }

  async replaceReferrer(
    manager: EntityManager,
    id: string,
    rule: Pick<PlaybackRestrictionEntity, 'allowedDomains' | 'allowNoReferrer'>,
    updatedAt: Date,
  ): Promise<PlaybackRestrictionEntity | null> {
    return this.update(manager, id, { allowedDomains: [...rule.allowedDomains], allowNoReferrer: rule.allowNoReferrer }, updatedAt);
  }

  async replaceUserAgent(
    manager: EntityManager,
    id: string,
    rule: Pick<PlaybackRestrictionEntity, 'allowNoUserAgent' | 'allowHighRiskUserAgent'>,
    updatedAt: Date,
  ): Promise<PlaybackRestrictionEntity | null> {
    return this.update(manager, id, { allowNoUserAgent: rule.allowNoUserAgent, allowHighRiskUserAgent: rule.allowHighRiskUserAgent }, updatedAt);
  }

  private update(manager: EntityManager, id: string, fields: Partial<PlaybackRestrictionEntity>, updatedAt: Date): PlaybackRestrictionEntity | null {
    this.managers.push(manager);
    const row = this.rows.get(id);
    if (!row) return null;
    Object.assign(row, { ...fields, updatedAt });
    return structuredClone(row);
  }

  async delete(manager: EntityManager, id: string): Promise<PlaybackRestrictionEntity | null> {
    this.managers.push(manager);
    const row = this.rows.get(id);
    this.rows.delete(id);
    return row ?? null;
  }
}
