import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { WebInputEntity, WebInputStatus } from './web-input.entity';

interface WebInputRow {
  id: string;
  url: string;
  auto_launch: boolean;
  live_stream_id: string;
  status: WebInputStatus;
  passthrough: string | null;
  resolution: string;
  timeout: number;
  launched_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: WebInputRow | undefined): WebInputEntity | null {
  if (!row) return null;
  return {
    id: row.id,
    url: row.url,
    autoLaunch: row.auto_launch,
    liveStreamId: row.live_stream_id,
    status: row.status,
    passthrough: row.passthrough,
    resolution: row.resolution,
    timeout: row.timeout,
    launchedAt: row.launched_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Web inputs in Postgres. Status changes are conditional on the status they leave (`from`), so two
 * callers racing (a shutdown and the worker's exit, the ingest's publish and a timeout) change it once.
 */
@Injectable()
export class WebInputRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, webInput: WebInputEntity): Promise<void> {
    await manager.insert(WebInputEntity, webInput);
  }

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<WebInputEntity | null> {
    return manager.findOne(WebInputEntity, { where: { id } });
  }

  /** Newest first; `offset` rows skipped. */
  list(limit: number, offset: number): Promise<WebInputEntity[]> {
    return this.dataSource.manager.find(WebInputEntity, { order: { createdAt: 'DESC', id: 'DESC' }, take: limit, skip: offset });
  }

  /** The web inputs sending to a live stream that are in one of `statuses`. */
  findByLiveStream(liveStreamId: string, statuses: WebInputStatus[]): Promise<WebInputEntity[]> {
    return this.dataSource.manager
      .createQueryBuilder(WebInputEntity, 'w')
      .where('w.live_stream_id = :liveStreamId AND w.status IN (:...statuses)', { liveStreamId, statuses })
      .getMany();
  }

  /** Every web input not idle (what a starting service reconciles). */
  findRunning(): Promise<WebInputEntity[]> {
    return this.dataSource.manager.createQueryBuilder(WebInputEntity, 'w').where(`w.status <> 'idle'`).getMany();
  }

  /** Moves the web input from one of `from` to `to` (launched_at set on launching, cleared on idle); null when it was not in `from`. */
  async transition(manager: EntityManager, id: string, from: WebInputStatus[], to: WebInputStatus): Promise<WebInputEntity | null> {
    const launchedAt = to === 'launching' ? () => 'now()' : to === 'idle' ? () => 'NULL' : () => '"launched_at"';
    const result = await manager
      .createQueryBuilder()
      .update(WebInputEntity)
      .set({ status: to, launchedAt, updatedAt: () => 'now()' })
      .where('id = :id AND status IN (:...from)', { id, from })
      .returning('*')
      .execute();
    return fromRow((result.raw as WebInputRow[])[0]);
  }

  /** Sets the url while the web input is idle; null when it does not exist or is not idle. */
  async updateUrl(manager: EntityManager, id: string, url: string): Promise<WebInputEntity | null> {
    const result = await manager
      .createQueryBuilder()
      .update(WebInputEntity)
      .set({ url, updatedAt: () => 'now()' })
      .where(`id = :id AND status = 'idle'`, { id })
      .returning('*')
      .execute();
    return fromRow((result.raw as WebInputRow[])[0]);
  }

  /** Deletes the web input; returns it as it was, or null when it does not exist. */
  async delete(manager: EntityManager, id: string): Promise<WebInputEntity | null> {
    const result = await manager.createQueryBuilder().delete().from(WebInputEntity).where('id = :id', { id }).returning('*').execute();
    return fromRow((result.raw as WebInputRow[])[0]);
  }
}
