import { ErrorCode } from '@platform/errors';
import { unixSeconds } from '@platform/ids';
import { live } from '@platform/proto';
import { EntityManager } from 'typeorm';
import { fakeUnitOfWork, rejection } from '@platform/testing';
import { TranscriptionVocabularyEntity, TranscriptionVocabularyFields } from './transcription-vocabulary.entity';
import { TranscriptionVocabularyRepository } from './transcription-vocabulary.repository';
import { TranscriptionVocabulariesService } from './transcription-vocabularies.service';

/** The repository's contract, kept in memory. */
class InMemoryVocabularies implements Pick<TranscriptionVocabularyRepository, keyof TranscriptionVocabularyRepository> {
  readonly rows = new Map<string, TranscriptionVocabularyEntity>();
  readonly managers: EntityManager[] = [];
  readonly listCalls: Array<{ limit: number; offset: number }> = [];

  async insert(manager: EntityManager, vocabulary: TranscriptionVocabularyEntity): Promise<void> {
    this.managers.push(manager);
    this.rows.set(vocabulary.id, structuredClone(vocabulary));
  }

  async findById(id: string): Promise<TranscriptionVocabularyEntity | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  async list(limit: number, offset: number): Promise<TranscriptionVocabularyEntity[]> {
    this.listCalls.push({ limit, offset });
    const all = [...this.rows.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    return all.slice(offset, offset + limit).map((r) => structuredClone(r));
  }

  async replace(manager: EntityManager, id: string, fields: TranscriptionVocabularyFields, updatedAt: Date): Promise<TranscriptionVocabularyEntity | null> {
    this.managers.push(manager);
    const row = this.rows.get(id);
    if (!row) return null;
    Object.assign(row, structuredClone(fields), { updatedAt });
    return structuredClone(row);
  }

  async delete(manager: EntityManager, id: string): Promise<TranscriptionVocabularyEntity | null> {
    this.managers.push(manager);
    const row = this.rows.get(id);
    this.rows.delete(id);
    return row ?? null;
  }
}

function setup() {
  const repository = new InMemoryVocabularies();
  const { unitOfWork, manager, events } = fakeUnitOfWork();
  const service = new TranscriptionVocabulariesService(repository as unknown as TranscriptionVocabularyRepository, unitOfWork);
  return { service, repository, manager, events };
}

const input = (fields: Partial<live.TranscriptionVocabularyInput>): live.TranscriptionVocabularyInput => ({ id: '', phrases: [], ...fields });

/** A stored vocabulary created on 2024-01-<day>, so that any change now moves updated_at. */
function stored(repository: InMemoryVocabularies, id: string, fields: Partial<TranscriptionVocabularyFields> = {}, day = 1): TranscriptionVocabularyEntity {
  const at = new Date(Date.UTC(2024, 0, day));
  const row: TranscriptionVocabularyEntity = { id, name: 'Old', phrases: ['old'], passthrough: 'old-pt', createdAt: at, updatedAt: at, ...fields };
  repository.rows.set(id, row);
  return structuredClone(row);
}

describe('TranscriptionVocabulariesService', () => {
  describe('create', () => {
    it('stores name, phrases and passthrough and returns the vocabulary with Unix-second timestamps', async () => {
      const { service, repository, manager } = setup();
      const created = await service.create(input({ id: 'ignored', name: 'Mux API', phrases: ['Mux', 'Live Stream'], passthrough: 'pt' }));

      expect(created.id).toMatch(/^[0-9A-Za-z]{32}$/);
      expect(created.id).not.toBe('ignored');
      const row = repository.rows.get(created.id)!;
      expect(row).toEqual({
        id: created.id,
        name: 'Mux API',
        phrases: ['Mux', 'Live Stream'],
        passthrough: 'pt',
        createdAt: row.createdAt,
        updatedAt: row.createdAt,
      });
      expect(repository.managers).toEqual([manager]);
      const seconds = Number(unixSeconds(row.createdAt));
      expect(created).toEqual({
        id: created.id,
        name: 'Mux API',
        phrases: ['Mux', 'Live Stream'],
        passthrough: 'pt',
        created_at: seconds,
        updated_at: seconds,
      });
    });

    it('leaves name and passthrough out when they are absent or empty', async () => {
      const { service, repository } = setup();
      const withoutThem = await service.create(input({ phrases: ['Mux'] }));
      const empty = await service.create(input({ name: '', phrases: ['Mux'], passthrough: '' }));

      for (const created of [withoutThem, empty]) {
        expect(created).not.toHaveProperty('name');
        expect(created).not.toHaveProperty('passthrough');
        expect(repository.rows.get(created.id)).toMatchObject({ name: null, passthrough: null });
      }
    });

    it('emits video.transcription_vocabulary.created with the vocabulary as the REST API shows it', async () => {
      const { service, repository, events } = setup();
      const created = await service.create(input({ name: 'Terms', phrases: ['CODEC', 'Orchid'] }));
      const at = unixSeconds(repository.rows.get(created.id)!.createdAt);

      expect(events).toEqual([
        {
          type: 'video.transcription_vocabulary.created',
          object: { type: 'transcription_vocabulary', id: created.id },
          data: { id: created.id, name: 'Terms', phrases: ['CODEC', 'Orchid'], created_at: at, updated_at: at },
        },
      ]);
    });

    it('accepts 1000 phrases of 32 characters and a 255-character passthrough', async () => {
      const { service } = setup();
      const phrases = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(32, 'x'));
      const created = await service.create(input({ phrases, passthrough: 'p'.repeat(255) }));
      expect(created.phrases).toEqual(phrases);
      expect(created.passthrough).toHaveLength(255);
    });

    it('counts characters, not UTF-16 units', async () => {
      const { service } = setup();
      const created = await service.create(input({ phrases: ['🎬'.repeat(32)], passthrough: 'é'.repeat(255) }));
      expect(created.phrases).toEqual(['🎬'.repeat(32)]);
    });

    it.each<[string, Partial<live.TranscriptionVocabularyInput>, string[]]>([
      ['no phrases', { phrases: [] }, ['phrases: must be a non-empty array of phrases']],
      ['1001 phrases', { phrases: Array.from({ length: 1001 }, (_, i) => `p${i}`) }, ['phrases: at most 1000 phrases are allowed, got 1001']],
      ['an empty phrase', { phrases: ['ok', ''] }, ['phrases[1]: must be a non-empty string']],
      ['a blank phrase', { phrases: ['   '] }, ['phrases[0]: must be a non-empty string']],
      ['a 33-character phrase', { phrases: ['ok', 'x'.repeat(33)] }, ['phrases[1]: must be at most 32 characters']],
      ['a 256-character passthrough', { phrases: ['ok'], passthrough: 'p'.repeat(256) }, ['passthrough: must be at most 255 characters']],
      [
        'several problems at once',
        { phrases: ['', 'x'.repeat(40)], passthrough: 'p'.repeat(300) },
        ['phrases[0]: must be a non-empty string', 'phrases[1]: must be at most 32 characters', 'passthrough: must be at most 255 characters'],
      ],
    ])('rejects %s as invalid parameters, storing and emitting nothing', async (_, fields, messages) => {
      const { service, repository, events } = setup();
      const error = await rejection(service.create(input(fields)));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual(messages);
      expect(repository.rows.size).toBe(0);
      expect(events).toEqual([]);
    });
  });

  describe('get', () => {
    it('returns the stored vocabulary', async () => {
      const { service, repository } = setup();
      const row = stored(repository, 'v1', { name: null, phrases: ['a', 'b'], passthrough: null });
      await expect(service.get('v1')).resolves.toEqual({
        id: 'v1',
        phrases: ['a', 'b'],
        created_at: Number(unixSeconds(row.createdAt)),
        updated_at: Number(unixSeconds(row.updatedAt)),
      });
    });

    it('answers NOT_FOUND "Transcription vocabulary not found" for an unknown id', async () => {
      const { service } = setup();
      const error = await rejection(service.get('missing'));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
      expect(error.messages).toEqual(['Transcription vocabulary not found']);
    });
  });

  describe('list', () => {
    it('returns newest first, 10 per page by default', async () => {
      const { service, repository } = setup();
      for (let day = 1; day <= 12; day++) stored(repository, `v${String(day).padStart(2, '0')}`, {}, day);

      const first = await service.list({ limit: 0, page: 0 });
      expect(first.items.map((v) => v.id)).toEqual(['v12', 'v11', 'v10', 'v09', 'v08', 'v07', 'v06', 'v05', 'v04', 'v03']);
      const second = await service.list({ limit: 0, page: 2 });
      expect(second.items.map((v) => v.id)).toEqual(['v02', 'v01']);
      expect(await service.list({ limit: 0, page: 3 })).toEqual({ items: [] });
      expect(repository.listCalls).toEqual([
        { limit: 10, offset: 0 },
        { limit: 10, offset: 10 },
        { limit: 10, offset: 20 },
      ]);
    });

    it('offsets by whole pages of size limit', async () => {
      const { service, repository } = setup();
      for (let day = 1; day <= 7; day++) stored(repository, `v${day}`, {}, day);

      const page3 = await service.list({ limit: 3, page: 3 });
      expect(page3.items.map((v) => v.id)).toEqual(['v1']);
      expect(repository.listCalls).toEqual([{ limit: 3, offset: 6 }]);
    });

    it('refuses a limit over 10', async () => {
      const { service, repository } = setup();
      const error = await rejection(service.list({ limit: 11, page: 1 }));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual(['limit: must be at most 10']);
      expect(repository.listCalls).toEqual([]);
    });
  });

  describe('update', () => {
    it('replaces name, phrases and passthrough, bumps updated_at and keeps created_at', async () => {
      const { service, repository, manager } = setup();
      const before = stored(repository, 'v1');

      const updated = await service.update(input({ id: 'v1', name: 'New', phrases: ['x', 'y'], passthrough: 'new-pt' }));

      const row = repository.rows.get('v1')!;
      expect(row).toMatchObject({ name: 'New', phrases: ['x', 'y'], passthrough: 'new-pt', createdAt: before.createdAt });
      expect(row.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
      expect(repository.managers).toEqual([manager]);
      expect(updated).toEqual({
        id: 'v1',
        name: 'New',
        phrases: ['x', 'y'],
        passthrough: 'new-pt',
        created_at: Number(unixSeconds(before.createdAt)),
        updated_at: Number(unixSeconds(row.updatedAt)),
      });
    });

    it('clears a name and passthrough the body leaves out (PUT semantics)', async () => {
      const { service, repository } = setup();
      stored(repository, 'v1', { name: 'Keep?', passthrough: 'keep?' });

      const updated = await service.update(input({ id: 'v1', phrases: ['only'] }));

      expect(repository.rows.get('v1')).toMatchObject({ name: null, phrases: ['only'], passthrough: null });
      expect(updated).not.toHaveProperty('name');
      expect(updated).not.toHaveProperty('passthrough');
    });

    it('emits video.transcription_vocabulary.updated with the new state', async () => {
      const { service, repository, events } = setup();
      const before = stored(repository, 'v1');

      await service.update(input({ id: 'v1', phrases: ['x'], passthrough: 'p' }));

      expect(events).toEqual([
        {
          type: 'video.transcription_vocabulary.updated',
          object: { type: 'transcription_vocabulary', id: 'v1' },
          data: {
            id: 'v1',
            phrases: ['x'],
            passthrough: 'p',
            created_at: unixSeconds(before.createdAt),
            updated_at: unixSeconds(repository.rows.get('v1')!.updatedAt),
          },
        },
      ]);
    });

    it('answers NOT_FOUND for an unknown id and emits nothing', async () => {
      const { service, events } = setup();
      const error = await rejection(service.update(input({ id: 'missing', phrases: ['x'] })));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
      expect(error.messages).toEqual(['Transcription vocabulary not found']);
      expect(events).toEqual([]);
    });

    it('validates like create and leaves the stored vocabulary untouched', async () => {
      const { service, repository, events } = setup();
      const before = stored(repository, 'v1');
      const error = await rejection(service.update(input({ id: 'v1', phrases: [] })));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual(['phrases: must be a non-empty array of phrases']);
      expect(repository.rows.get('v1')).toEqual(before);
      expect(events).toEqual([]);
    });
  });

  describe('delete', () => {
    it('removes the vocabulary and emits video.transcription_vocabulary.deleted with it as it was', async () => {
      const { service, repository, events, manager } = setup();
      const before = stored(repository, 'v1', { name: 'Gone', phrases: ['a'], passthrough: null });

      await service.delete('v1');

      expect(repository.rows.has('v1')).toBe(false);
      expect(repository.managers).toEqual([manager]);
      expect(events).toEqual([
        {
          type: 'video.transcription_vocabulary.deleted',
          object: { type: 'transcription_vocabulary', id: 'v1' },
          data: { id: 'v1', name: 'Gone', phrases: ['a'], created_at: unixSeconds(before.createdAt), updated_at: unixSeconds(before.updatedAt) },
        },
      ]);
      const error = await rejection(service.get('v1'));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
    });

    it('answers NOT_FOUND for an unknown id and emits nothing', async () => {
      const { service, events } = setup();
      const error = await rejection(service.delete('missing'));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
      expect(error.messages).toEqual(['Transcription vocabulary not found']);
      expect(events).toEqual([]);
    });
  });
});
