import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { PlaybackRestrictionEntity } from './playback-restriction.entity';

interface PlaybackRestrictionRow {
  id: string;
  allowed_domains: string[];
  allow_no_referrer: boolean;
  allow_no_user_agent: boolean;
  allow_high_risk_user_agent: boolean;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: PlaybackRestrictionRow | undefined): PlaybackRestrictionEntity | null {
  if (!row) return null;
  return {
    id: row.id,
    allowedDomains: row.allowed_domains,
    allowNoReferrer: row.allow_no_referrer,
    allowNoUserAgent: row.allow_no_user_agent,
    allowHighRiskUserAgent: row.allow_high_risk_user_agent,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Playback restrictions in Postgres; a deleted restriction's row is gone. */
@Injectable()
export class PlaybackRestrictionRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, restriction: PlaybackRestrictionEntity): Promise<void> {
    await manager.insert(PlaybackRestrictionEntity, restriction);
  }

  findById(id: string): Promise<PlaybackRestrictionEntity | null> {
    return this.dataSource.manager.findOne(PlaybackRestrictionEntity, { where: { id } });
  }

  /** Newest first; `offset` rows skipped; `total` counts every restriction. */
  async list(limit: number, offset: number): Promise<{ items: PlaybackRestrictionEntity[]; total: number }> {
    const [items, total] = await this.dataSource.manager.findAndCount(PlaybackRestrictionEntity, {
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
    return { items, total };
  }

  /** Replaces the referrer rule; returns the updated restriction, or null when it does not exist. */
  replaceReferrer(
    manager: EntityManager,
    id: string,
    rule: Pick<PlaybackRestrictionEntity, 'allowedDomains' | 'allowNoReferrer'>,
    updatedAt: Date,
  ): Promise<PlaybackRestrictionEntity | null> {
    return this.update(manager, id, { allowedDomains: rule.allowedDomains, allowNoReferrer: rule.allowNoReferrer, updatedAt });
  }

  /** Replaces the user-agent rule; returns the updated restriction, or null when it does not exist. */
  replaceUserAgent(
    manager: EntityManager,
    id: string,
    rule: Pick<PlaybackRestrictionEntity, 'allowNoUserAgent' | 'allowHighRiskUserAgent'>,
    updatedAt: Date,
  ): Promise<PlaybackRestrictionEntity | null> {
    return this.update(manager, id, { allowNoUserAgent: rule.allowNoUserAgent, allowHighRiskUserAgent: rule.allowHighRiskUserAgent, updatedAt });
  }

  /** Deletes the restriction; returns it as it was, or null when it does not exist. */
  async delete(manager: EntityManager, id: string): Promise<PlaybackRestrictionEntity | null> {
    const result = await manager.createQueryBuilder().delete().from(PlaybackRestrictionEntity).where('id = :id', { id }).returning('*').execute();
    return fromRow((result.raw as PlaybackRestrictionRow[])[0]);
  }

  private async update(manager: EntityManager, id: string, set: Partial<PlaybackRestrictionEntity>): Promise<PlaybackRestrictionEntity | null> {
    const result = await manager.createQueryBuilder().update(PlaybackRestrictionEntity).set(set).where('id = :id', { id }).returning('*').execute();
    return fromRow((result.raw as PlaybackRestrictionRow[])[0]);
  }
}
