import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GeneratedSubtitles } from '../live-streams/generated-subtitles';
import { LatencyMode } from '../live-streams/live-stream.entity';
import { INGEST_LEASE_SECONDS } from '../live-streams/live-stream-ingest.service';

/** A generated_live_final pass: the closed recording heard again for its track. */
export interface FinalSubtitlePass {
  assetId: string;
  trackId: string;
  liveStreamId: string;
  latencyMode: LatencyMode;
  subtitles: GeneratedSubtitles;
}

interface Row {
  asset_id: string;
  track_id: string;
  live_stream_id: string;
  latency_mode: LatencyMode;
  subtitles: GeneratedSubtitles;
}

const lease = (now: Date) => new Date(now.getTime() + INGEST_LEASE_SECONDS * 1000);

/** The generated_live_final passes under way (schema `live`), each held by the process running it with a lease. */
@Injectable()
export class FinalSubtitlePasses {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async begin(pass: FinalSubtitlePass, owner: string, now = new Date()): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "live"."final_subtitle_passes" ("asset_id", "track_id", "live_stream_id", "latency_mode", "subtitles", "owner", "lease_until")
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT ("asset_id") DO UPDATE SET "owner" = $6, "lease_until" = $7`,
      [pass.assetId, pass.trackId, pass.liveStreamId, pass.latencyMode, JSON.stringify(pass.subtitles), owner, lease(now)],
    );
  }

  async end(assetId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM "live"."final_subtitle_passes" WHERE "asset_id" = $1`, [assetId]);
  }

  async renew(owner: string, now = new Date()): Promise<void> {
    await this.dataSource.query(`UPDATE "live"."final_subtitle_passes" SET "lease_until" = $2 WHERE "owner" = $1`, [owner, lease(now)]);
  }

  /** Lets this process's passes go (it stops): the next process resumes them at once. */
  async release(owner: string): Promise<void> {
    await this.dataSource.query(`UPDATE "live"."final_subtitle_passes" SET "owner" = NULL, "lease_until" = NULL WHERE "owner" = $1`, [owner]);
  }

  /** Takes for `owner` the passes whose process is gone; each is taken by one process only. */
  async claimOrphans(owner: string, now = new Date()): Promise<FinalSubtitlePass[]> {
    const [rows] = await this.dataSource.query<[Row[], number]>(
      `UPDATE "live"."final_subtitle_passes" SET "owner" = $1, "lease_until" = $3
        WHERE "asset_id" IN (
          SELECT "asset_id" FROM "live"."final_subtitle_passes"
           WHERE "owner" IS NULL OR "lease_until" IS NULL OR "lease_until" <= $2
           FOR UPDATE SKIP LOCKED)
        RETURNING "asset_id", "track_id", "live_stream_id", "latency_mode", "subtitles"`,
      [owner, now, lease(now)],
    );
    return rows.map((r) => ({ assetId: r.asset_id, trackId: r.track_id, liveStreamId: r.live_stream_id, latencyMode: r.latency_mode, subtitles: r.subtitles }));
  }
}
