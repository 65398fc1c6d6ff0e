import { loadConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { DomainError, ErrorCode } from '@platform/errors';
import { toTranscriptionVocabulary } from '@platform/api-shapes';
import { UnitOfWork } from '@platform/events';
import { newId, unixSeconds } from '@platform/ids';
import { DataSource } from 'typeorm';
import { liveDatabase } from '../database-options';
import { CreateTranscriptionVocabularies1732200000100 } from '../migrations/1732200000100-create-transcription-vocabularies';
import { TranscriptionVocabularyEntity } from './transcription-vocabulary.entity';
import { toTranscriptionVocabularyMessage } from './transcription-vocabulary.mapper';
import { TranscriptionVocabularyRepository } from './transcription-vocabulary.repository';
import { TranscriptionVocabulariesService } from './transcription-vocabularies.service';
import { createTestDatabase } from '@platform/testing';

jest.setTimeout(30_000);

interface OutboxRow {
  topic: string;
  key: string;
  payload: { id: string; type: string; occurred_at: string; object: { type: string; id: string }; data: Record<string, unknown> };
}

describe('transcription vocabularies on real Postgres', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;
  let repository: TranscriptionVocabularyRepository;
  let unitOfWork: UnitOfWork;
  let service: TranscriptionVocabulariesService;
  const config = () => loadConfig({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '3' });

  beforeAll(async () => {
    database = await createTestDatabase('live_it');
    dataSource = await openDatabase(config(), liveDatabase);
    repository = new TranscriptionVocabularyRepository(dataSource);
    unitOfWork = new UnitOfWork(dataSource, liveDatabase.schema, { nudge: () => undefined });
    service = new TranscriptionVocabulariesService(repository, unitOfWork);
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  const outboxOf = (id: string) => dataSource.query<OutboxRow[]>(`SELECT "topic", "key", "payload" FROM "live"."outbox" WHERE "key" = $1 ORDER BY "id"`, [id]);
  const rowCount = async (id: string) =>
    Number((await dataSource.query<Array<{ n: string }>>(`SELECT count(*) AS n FROM "live"."transcription_vocabularies" WHERE "id" = $1`, [id]))[0].n);

  describe('migrations', () => {
    it('create the tables and the outbox in schema "live", recorded once', async () => {
      const tables = await dataSource.query<
        Array<{
          table_name: string;
        }>
      >(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'live' ORDER BY table_name`);
      expect(tables.map((t) => t.table_name)).toEqual([
        'final_subtitle_passes',
        'live_streams',
        'migrations',
        'outbox',
        'playback_ids',
        'processed_events',
        'simulcast_targets',
        'transcription_vocabularies',
      ]);
      expect(await dataSource.showMigrations()).toBe(false);
    });

    it('are idempotent: opening the database again applies nothing and fails nothing', async () => {
      const applied = async () =>
        (await dataSource.query<Array<{ name: string }>>(`SELECT "name" FROM "live"."migrations" ORDER BY "name"`)).map((r) => r.name);
      const before = await applied();
      expect(before).toHaveLength((liveDatabase.migrations as unknown[]).length);

      const again = await openDatabase(config(), liveDatabase);
      await again.destroy();
      expect(await applied()).toEqual(before);

      // and the SQL itself survives a re-run (a crash after the DDL, before it was recorded)
      const runner = dataSource.createQueryRunner();
      try {
        await new CreateTranscriptionVocabularies1732200000100().up(runner);
      } finally {
        await runner.release();
      }
    });
  });

  describe('CRUD through the service and the real repository', () => {
    it('round-trips a vocabulary: create, get, update (PUT), delete', async () => {
      // characters that need quoting inside a Postgres array literal
      const phrases = ['Mux', 'a,b', 'say "hi"', '{braces}', 'NULL', 'back\\slash', 'Zoë 🎬'];
      const created = await service.create({ id: '', name: 'Mux API', phrases, passthrough: 'pt' });

      const fetched = await service.get(created.id);
      expect(fetched).toEqual(created);
      expect(fetched).toEqual({
        id: created.id,
        name: 'Mux API',
        phrases,
        passthrough: 'pt',
        created_at: created.created_at,
        updated_at: created.created_at,
      });
      expect(Math.abs(created.created_at - Date.now() / 1000)).toBeLessThan(60);

      const updated = await service.update({ id: created.id, phrases: ['only one'] });
      expect(updated).toEqual({ id: created.id, phrases: ['only one'], created_at: created.created_at, updated_at: updated.updated_at });
      expect(updated.updated_at).toBeGreaterThanOrEqual(created.updated_at);
      expect(await service.get(created.id)).toEqual(updated);
      const [row] = await dataSource.query<Array<{ name: string | null; passthrough: string | null; created_at: Date; updated_at: Date }>>(
        `SELECT "name", "passthrough", "created_at", "updated_at" FROM "live"."transcription_vocabularies" WHERE "id" = $1`,
        [created.id],
      );
      expect(row.name).toBeNull();
      expect(row.passthrough).toBeNull();
      expect(row.updated_at.getTime()).toBeGreaterThanOrEqual(row.created_at.getTime());

      await service.delete(created.id);
      expect(await rowCount(created.id)).toBe(0);
      const error = await service.get(created.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe(ErrorCode.NOT_FOUND);
      const again = await service.delete(created.id).catch((e: unknown) => e);
      expect((again as DomainError).code).toBe(ErrorCode.NOT_FOUND);
    });

    it('moves updated_at to now on update and keeps created_at', async () => {
      const longAgo = new Date(Date.UTC(2020, 0, 1));
      const id = newId();
      await repository.insert(dataSource.manager, { id, name: 'n', phrases: ['a'], passthrough: 'p', createdAt: longAgo, updatedAt: longAgo });

      const updated = await service.update({ id, name: 'n2', phrases: ['b'], passthrough: 'p2' });

      expect(updated.created_at).toBe(Number(unixSeconds(longAgo)));
      expect(Math.abs(updated.updated_at - Date.now() / 1000)).toBeLessThan(60);
      expect(await service.get(id)).toEqual(updated);
    });

    it('lists newest first, offset by whole pages', async () => {
      // dated after anything else in this database, so they are the first page
      const at = (year: number) => new Date(Date.UTC(year, 0, 1));
      const make = (year: number): TranscriptionVocabularyEntity => ({
        id: newId(),
        name: null,
        phrases: [`p${year}`],
        passthrough: null,
        createdAt: at(year),
        updatedAt: at(year),
      });
      const [oldest, middle, newest] = [make(2101), make(2102), make(2103)];
      for (const v of [middle, oldest, newest]) await repository.insert(dataSource.manager, v);

      expect((await service.list({ limit: 2, page: 1 })).items.map((v) => v.id)).toEqual([newest.id, middle.id]);
      const second = await service.list({ limit: 2, page: 2 });
      expect(second.items[0]).toEqual({
        id: oldest.id,
        phrases: ['p2101'],
        created_at: Number(unixSeconds(at(2101))),
        updated_at: Number(unixSeconds(at(2101))),
      });
    });
  });

  describe('outbox', () => {
    it('holds each change event, written in the same transaction as the change', async () => {
      const created = await service.create({ id: '', name: 'Terms', phrases: ['CODEC'] });
      await service.update({ id: created.id, phrases: ['CODEC', 'Orchid'], passthrough: 'p' });
      await service.delete(created.id);

      const rows = await outboxOf(created.id);
      expect(rows.map((r) => r.topic)).toEqual([
        'video.transcription_vocabulary.created.v1',
        'video.transcription_vocabulary.updated.v1',
        'video.transcription_vocabulary.deleted.v1',
      ]);
      const [c, u, d] = rows.map((r) => r.payload);
      const createdAt = String(created.created_at);
      expect(c).toMatchObject({
        type: 'video.transcription_vocabulary.created',
        object: { type: 'transcription_vocabulary', id: created.id },
        data: { id: created.id, name: 'Terms', phrases: ['CODEC'], created_at: createdAt, updated_at: createdAt },
      });
      expect(u.data).toEqual({ id: created.id, phrases: ['CODEC', 'Orchid'], passthrough: 'p', created_at: createdAt, updated_at: u.data.updated_at });
      expect(d.data).toEqual(u.data);
      expect(new Set([c.id, u.id, d.id]).size).toBe(3);
    });

    it('keeps neither the change nor its event when the transaction rolls back', async () => {
      const vocabulary: TranscriptionVocabularyEntity = {
        id: newId(),
        name: null,
        phrases: ['x'],
        passthrough: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      };
      const failure = await unitOfWork
        .run(async (manager, emit) => {
          await repository.insert(manager, vocabulary);
          emit('video.transcription_vocabulary.created', toTranscriptionVocabulary(toTranscriptionVocabularyMessage(vocabulary)));
          throw new Error('fails after the insert');
        })
        .catch((e: unknown) => e);

      expect((failure as Error).message).toBe('fails after the insert');
      expect(await rowCount(vocabulary.id)).toBe(0);
      expect(await outboxOf(vocabulary.id)).toEqual([]);
    });

    it('writes nothing for an update of an unknown id', async () => {
      const id = newId();
      const error = await service.update({ id, phrases: ['x'] }).catch((e: unknown) => e);
      expect((error as DomainError).code).toBe(ErrorCode.NOT_FOUND);
      expect(await outboxOf(id)).toEqual([]);
    });
  });
});
