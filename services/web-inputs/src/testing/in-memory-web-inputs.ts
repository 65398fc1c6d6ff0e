import { EntityManager } from 'typeorm';
import { WebInputEntity, WebInputStatus } from '../web-inputs/web-input.entity';
import { WebInputRepository } from '../web-inputs/web-input.repository';

/** The repository's behaviour in memory (conditional moves included), for unit tests. */
export class InMemoryWebInputs implements Pick<WebInputRepository, keyof WebInputRepository> {
  readonly rows = new Map<string, WebInputEntity>();
  now = new Date('2026-11-27T10:00:00Z');

  insert(_manager: EntityManager, webInput: WebInputEntity): Promise<void> {
    this.rows.set(webInput.id, { ...webInput });
    return Promise.resolve();
  }

  findById(id: string): Promise<WebInputEntity | null> {
    const row = this.rows.get(id);
    return Promise.resolve(row ? { ...row } : null);
  }

  list(limit: number, offset: number): Promise<WebInputEntity[]> {
    const sorted = [...this.rows.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
    return Promise.resolve(sorted.slice(offset, offset + limit).map((r) => ({ ...r })));
  }

  findByLiveStream(liveStreamId: string, statuses: WebInputStatus[]): Promise<WebInputEntity[]> {
    return Promise.resolve([...this.rows.values()].filter((r) => r.liveStreamId === liveStreamId && statuses.includes(r.status)).map((r) => ({ ...r })));
  }

  findRunning(): Promise<WebInputEntity[]> {
    return Promise.resolve([...this.rows.values()].filter((r) => r.status !== 'idle').map((r) => ({ ...r })));
  }

  transition(_manager: EntityManager, id: string, from: WebInputStatus[], to: WebInputStatus): Promise<WebInputEntity | null> {
    const row = this.rows.get(id);
    if (!row || !from.includes(row.status)) return Promise.resolve(null);
    row.status = to;
    if (to === 'launching') row.launchedAt = this.now;
    if (to === 'idle') row.launchedAt = null;
    row.updatedAt = this.now;
    return Promise.resolve({ ...row });
  }

  updateUrl(_manager: EntityManager, id: string, url: string): Promise<WebInputEntity | null> {
    const row = this.rows.get(id);
    if (!row || row.status !== 'idle') return Promise.resolve(null);
    row.url = url;
    return Promise.resolve({ ...row });
  }

  delete(_manager: EntityManager, id: string): Promise<WebInputEntity | null> {
    const row = this.rows.get(id);
    this.rows.delete(id);
    return Promise.resolve(row ? { ...row } : null);
  }
}
