import { Injectable } from '@nestjs/common';
import { assets } from '@platform/proto';
import { EntityManager } from 'typeorm';

/** Warnings sent per asset, so a repeated report (a redone job) sends nothing twice. */
@Injectable()
export class AssetWarningRepository {
  /** True when this asset had no warning of this type yet (now recorded, in the caller's transaction). */
  async recordOnce(manager: EntityManager, assetId: string, warning: assets.AssetWarning): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `INSERT INTO "assets"."asset_warnings" ("asset_id", "type", "message") VALUES ($1, $2, $3)
        ON CONFLICT ("asset_id", "type") DO NOTHING RETURNING "type"`,
      [assetId, warning.type, warning.message],
    );
    return rows.length === 1;
  }
}
