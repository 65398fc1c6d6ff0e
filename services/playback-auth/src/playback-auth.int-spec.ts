import { rejection } from '@platform/testing';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { ErrorCode } from '@platform/errors';
import { toPlaybackRestriction } from '@platform/api-shapes';
import { UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { DataSource, MigrationInterface } from 'typeorm';
import { playbackAuthDatabase } from './database-options';
import { toPlaybackRestrictionMessage } from './playback-restrictions/playback-restriction.mapper';
import { PlaybackRestrictionRepository } from './playback-restrictions/playback-restriction.repository';
import { PlaybackRestrictionsService } from './playback-restrictions/playback-restrictions.service';
import { SigningKeyRepository } from './signing-keys/signing-key.repository';
import { SigningKeysService } from './signing-keys/signing-keys.service';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
if (!TEST_DATABASE_URL) {
  throw new Error(
    'TEST_DATABASE_URL is not set. Integration tests need a real Postgres: run `npm test`, or export TEST_DATABASE_URL=$(bash scripts/infra/postgres.sh url) before `npm run test:integration`.',
  );
}

interface OutboxRow {
  topic: string;
  key: string;
  payload: { type: string; object: { type: string; id: string }; data: Record<string, unknown> };
}

const config: PlatformConfig = { ...loadConfig({}), databaseUrl: TEST_DATABASE_URL, databasePoolSize: 3 };

describe('playback-auth against Postgres', () => {
  let dataSource: DataSource;
  let unitOfWork: UnitOfWork;

  const outboxRows = async (key: string): Promise<OutboxRow[]> =>
    await dataSource.query<OutboxRow[]>('SELECT "topic", "key", "payload" FROM "playback_auth"."outbox" WHERE "key" = $1 ORDER BY "id"', [key]);

  beforeAll(async () => {
    dataSource = await openDatabase(config, playbackAuthDatabase);
    unitOfWork = new UnitOfWork(dataSource, playbackAuthDatabase.schema, { nudge: () => undefined });
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  describe('migrations', () => {
    it('apply again without error or duplicates, at start and when re-run by hand', async () => {
      const second = await openDatabase(config, playbackAuthDatabase);
      try {
        expect(await second.showMigrations()).toBe(false);
        const runner = second.createQueryRunner();
        try {
          for (const Migration of playbackAuthDatabase.migrations as Array<new () => MigrationInterface>) {
            await new Migration().up(runner);
          }
        } finally {
          await runner.release();
        }
      } finally {
        await second.destroy();
      }
      const names = (await dataSource.query<Array<{ name: string }>>('SELECT "name" FROM "playback_auth"."migrations"')).map((r) => r.name);
      for (const Migration of playbackAuthDatabase.migrations as Array<new () => MigrationInterface>) {
        const name = new Migration().name ?? Migration.name;
        expect(names.filter((n) => n === name)).toEqual([name]);
      }
      const tables = await dataSource.query<Array<{ table_name: string }>>(
        `SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = 'playback_auth' ORDER BY "table_name"`,
      );
      expect(tables.map((t) => t.table_name)).toEqual(['migrations', 'outbox', 'playback_restrictions', 'processed_events', 'signing_keys']);
    });

    it('adds the user-agent columns as NOT NULL booleans defaulting to true, so older rows read as Mux defaults', async () => {
      const columns = await dataSource.query<Array<Record<string, string>>>(
        `SELECT "column_name", "data_type", "is_nullable", "column_default" FROM information_schema.columns
          WHERE "table_schema" = 'playback_auth' AND "table_name" = 'playback_restrictions' AND "column_name" LIKE '%user_agent'
          ORDER BY "column_name"`,
      );
      expect(columns).toEqual([
        { column_name: 'allow_high_risk_user_agent', data_type: 'boolean', is_nullable: 'NO', column_default: 'true' },
        { column_name: 'allow_no_user_agent', data_type: 'boolean', is_nullable: 'NO', column_default: 'true' },
      ]);

      // a row written as before the migration, without the new columns
      const id = newId();
      await dataSource.query(
        `INSERT INTO "playback_auth"."playback_restrictions" ("id", "allowed_domains", "allow_no_referrer", "created_at", "updated_at")
          VALUES ($1, ARRAY['old.test'], false, now(), now())`,
        [id],
      );
      const service = new PlaybackRestrictionsService(new PlaybackRestrictionRepository(dataSource), unitOfWork);
      expect((await service.get(id)).user_agent).toEqual({ allow_no_user_agent: true, allow_high_risk_user_agent: true });
    });
  });

  describe('signing keys', () => {
    it('create, get, list, look up the public key, delete for good, with an outbox row per change', async () => {
      const service = new SigningKeysService(new SigningKeyRepository(dataSource), unitOfWork);
      const created = await service.create();
      const privateKey = createPrivateKey(Buffer.from(created.private_key!, 'base64').toString('utf8'));

      expect(await service.get(created.id)).toEqual({ id: created.id, created_at: created.created_at });
      const page = await service.list({ limit: 100, page: 1 });
      expect(page.items).toContainEqual({ id: created.id, created_at: created.created_at });
      expect(await service.findActivePublicKey(created.id)).toBe(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }));

      const [row] = await dataSource.query<Array<Record<string, unknown>>>('SELECT * FROM "playback_auth"."signing_keys" WHERE "id" = $1', [created.id]);
      expect(Object.keys(row).sort()).toEqual(['created_at', 'deleted_at', 'id', 'public_key']);
      expect(row.deleted_at).toBeNull();

      await service.delete(created.id);
      expect((await rejection(service.get(created.id))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(service.delete(created.id))).code).toBe(ErrorCode.NOT_FOUND);
      expect(await service.findActivePublicKey(created.id)).toBeUndefined();
      expect((await service.list({ limit: 100, page: 1 })).items.map((k) => k.id)).not.toContain(created.id);
      const [deleted] = await dataSource.query<
        Array<{
          deleted_at: Date;
        }>
      >('SELECT "deleted_at" FROM "playback_auth"."signing_keys" WHERE "id" = $1', [created.id]);
      expect(deleted.deleted_at).toBeInstanceOf(Date);

      const events = await outboxRows(created.id);
      expect(events.map((e) => e.topic)).toEqual(['system.signing_key.created.v1', 'system.signing_key.deleted.v1']);
      for (const event of events) {
        expect(event.payload.object).toEqual({ type: 'signing_key', id: created.id });
        expect(event.payload.data).toEqual({ id: created.id, created_at: String(created.created_at) });
      }
    });

    it('lists newest first and pages by whole pages', async () => {
      const repository = new SigningKeyRepository(dataSource);
      const service = new SigningKeysService(repository, unitOfWork);
      // distinct creation times (a millisecond apart), so the expected order is certain
      const base = Date.now();
      const ids = [newId(), newId(), newId()];
      await unitOfWork.run(async (manager) => {
        for (const [i, id] of ids.entries()) await repository.insert(manager, { id, publicKey: 'pem', createdAt: new Date(base + i), deletedAt: null });
      });
      expect((await service.list({ limit: 3, page: 1 })).items.map((k) => k.id)).toEqual([...ids].reverse());
      expect((await service.list({ limit: 1, page: 2 })).items.map((k) => k.id)).toEqual([ids[1]]);
    });
  });

  describe('playback restrictions', () => {
    it('create, get, list, replace the referrer, replace the user-agent rule, delete, with an outbox row per change', async () => {
      const service = new PlaybackRestrictionsService(new PlaybackRestrictionRepository(dataSource), unitOfWork);
      const before = (await service.list({ limit: 1, page: 1 })).total_row_count;

      const created = await service.create({
        referrer: { allowed_domains: ['Example.com', '*.example.org', 'example.com'], allow_no_referrer: true },
        user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true },
      });
      expect(created.referrer).toEqual({ allowed_domains: ['example.com', '*.example.org'], allow_no_referrer: true });
      expect(created.user_agent).toEqual({ allow_no_user_agent: false, allow_high_risk_user_agent: true });
      expect(await service.get(created.id)).toEqual(created);
      const listed = await service.list({ limit: 1, page: 1 });
      expect(listed).toEqual({ items: [created], total_row_count: before + 1 });

      const updated = await service.updateReferrer({ id: created.id, referrer: { allowed_domains: ['*'], allow_no_referrer: false } });
      expect(updated).toEqual({ ...created, updated_at: updated.updated_at, referrer: { allowed_domains: ['*'], allow_no_referrer: false } });
      expect(updated.updated_at).toBeGreaterThanOrEqual(created.updated_at);
      expect(await service.get(created.id)).toEqual(updated);

      const agentUpdated = await service.updateUserAgent({ id: created.id, user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: false } });
      expect(agentUpdated).toEqual({
        ...updated,
        updated_at: agentUpdated.updated_at,
        user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: false },
      });
      expect(agentUpdated.updated_at).toBeGreaterThanOrEqual(updated.updated_at);
      expect(await service.get(created.id)).toEqual(agentUpdated);
      const [row] = await dataSource.query<Array<{ allow_no_user_agent: boolean; allow_high_risk_user_agent: boolean; updated_at: Date }>>(
        'SELECT "allow_no_user_agent", "allow_high_risk_user_agent", "updated_at" FROM "playback_auth"."playback_restrictions" WHERE "id" = $1',
        [created.id],
      );
      expect(row).toEqual({ allow_no_user_agent: true, allow_high_risk_user_agent: false, updated_at: expect.any(Date) });
      expect(Math.floor(row.updated_at.getTime() / 1000)).toBe(agentUpdated.updated_at);
      expect((await rejection(service.updateUserAgent({ id: newId(), user_agent: undefined }))).code).toBe(ErrorCode.NOT_FOUND);

      await service.delete(created.id);
      expect((await rejection(service.get(created.id))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(service.delete(created.id))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await service.list({ limit: 1, page: 1 })).total_row_count).toBe(before);

      const events = await outboxRows(created.id);
      expect(events.map((e) => e.topic)).toEqual([
        'video.playback_restriction.created.v1',
        'video.playback_restriction.updated.v1',
        'video.playback_restriction.updated.v1',
        'video.playback_restriction.deleted.v1',
      ]);
      const data = (r: typeof created) => ({
        id: created.id,
        created_at: String(created.created_at),
        updated_at: String(r.updated_at),
        referrer: r.referrer,
        user_agent: r.user_agent,
      });
      expect(events.map((e) => e.payload.data)).toEqual([data(created), data(updated), data(agentUpdated), data(agentUpdated)]);
    });

    it('lists newest first and pages by whole pages', async () => {
      const repository = new PlaybackRestrictionRepository(dataSource);
      const service = new PlaybackRestrictionsService(repository, unitOfWork);
      const base = Date.now();
      const ids = [newId(), newId(), newId()];
      await unitOfWork.run(async (manager) => {
        for (const [i, id] of ids.entries()) {
          const at = new Date(base + i);
          await repository.insert(manager, {
            id,
            allowedDomains: [`site${i}.test`],
            allowNoReferrer: false,
            allowNoUserAgent: true,
            allowHighRiskUserAgent: true,
            createdAt: at,
            updatedAt: at,
          });
        }
      });
      expect((await service.list({ limit: 3, page: 1 })).items.map((r) => r.id)).toEqual([...ids].reverse());
      expect((await service.list({ limit: 1, page: 2 })).items.map((r) => r.id)).toEqual([ids[1]]);
    });

    it('writes nothing, state or outbox, when the transaction rolls back', async () => {
      const repository = new PlaybackRestrictionRepository(dataSource);
      const id = newId();
      const now = new Date();
      const restriction = {
        id,
        allowedDomains: ['a.test'],
        allowNoReferrer: false,
        allowNoUserAgent: true,
        allowHighRiskUserAgent: true,
        createdAt: now,
        updatedAt: now,
      };

      // the work fails after its write and its event
      await expect(
        unitOfWork.run(async (manager, emit) => {
          await repository.insert(manager, restriction);
          emit('video.playback_restriction.created', toPlaybackRestriction(toPlaybackRestrictionMessage(restriction)));
          throw new Error('fails after writing');
        }),
      ).rejects.toThrow('fails after writing');
      expect(await repository.findById(id)).toBeNull();
      expect(await outboxRows(id)).toEqual([]);

      // the outbox insert itself fails (jsonb refuses \u0000): the state write goes too
      await expect(
        unitOfWork.run(async (manager, emit) => {
          await repository.insert(manager, restriction);
          const body = toPlaybackRestriction(toPlaybackRestrictionMessage(restriction));
          emit('video.playback_restriction.created', { ...body, referrer: { ...body.referrer, allowed_domains: ['bad\u0000'] } });
        }),
      ).rejects.toThrow();
      expect(await repository.findById(id)).toBeNull();
      expect(await outboxRows(id)).toEqual([]);
    });
  });
});
