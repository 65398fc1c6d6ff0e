import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { PlaybackIdEntity, PlaybackPolicy } from './playback-id.entity';

interface PlaybackIdRow {
  id: string;
  asset_id: string;
  policy: PlaybackPolicy;
  created_at: Date;
}

function fromRow(row: PlaybackIdRow): PlaybackIdEntity {
  return { id: row.id, assetId: row.asset_id, policy: row.policy, createdAt: row.created_at };
}

const COLUMNS = '"id", "asset_id", "policy", "created_at"';

/** Playback ids of assets in Postgres; an asset lists them in the order they were made. */
@Injectable()
export class PlaybackIdRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Inserts in the order given (that order is kept by `seq`). */
  async insert(manager: EntityManager, playbackIds: PlaybackIdEntity[]): Promise<void> {
    for (const p of playbackIds) {
      await manager.query(`INSERT INTO "assets"."playback_ids" (${COLUMNS}) VALUES ($1, $2, $3, $4)`, [p.id, p.assetId, p.policy, p.createdAt]);
    }
  }

  async findById(id: string): Promise<PlaybackIdEntity | null> {
    const rows = await this.dataSource.query<PlaybackIdRow[]>(`SELECT ${COLUMNS} FROM "assets"."playback_ids" WHERE "id" = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** The playback ids of each asset (one query for a whole page), in creation order. */
  async findByAssetIds(assetIds: string[], manager: EntityManager = this.dataSource.manager): Promise<Map<string, PlaybackIdEntity[]>> {
    const byAsset = new Map<string, PlaybackIdEntity[]>(assetIds.map((id) => [id, []]));
    if (assetIds.length === 0) return byAsset;
    const rows = await manager.query<PlaybackIdRow[]>(
      `SELECT ${COLUMNS} FROM "assets"."playback_ids" WHERE "asset_id" = ANY($1::text[]) ORDER BY "asset_id", "seq"`,
      [assetIds],
    );
    for (const row of rows) byAsset.get(row.asset_id)?.push(fromRow(row));
    return byAsset;
  }

  async findByAssetId(assetId: string, manager?: EntityManager): Promise<PlaybackIdEntity[]> {
    return (await this.findByAssetIds([assetId], manager)).get(assetId) ?? [];
  }

  /** Deletes one playback id of the asset; returns it, or null when the asset has no such id. */
  async delete(manager: EntityManager, assetId: string, id: string): Promise<PlaybackIdEntity | null> {
    const [rows] = await manager.query<[PlaybackIdRow[], number]>(
      `DELETE FROM "assets"."playback_ids" WHERE "id" = $1 AND "asset_id" = $2 RETURNING ${COLUMNS}`,
      [id, assetId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Deletes every playback id of the asset; returns them as they were. */
  async deleteByAssetId(manager: EntityManager, assetId: string): Promise<PlaybackIdEntity[]> {
    const [rows] = await manager.query<[Array<PlaybackIdRow & { seq: string }>, number]>(
      `DELETE FROM "assets"."playback_ids" WHERE "asset_id" = $1 RETURNING ${COLUMNS}, "seq"`,
      [assetId],
    );
    return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map(fromRow);
  }
}
