import { onCluster } from './support/kafka-names';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { readUntil } from '@platform/testing';
import { runningEmbeddedPostgresUrl } from '../libs/database/src/embedded-postgres';
import { api, platform, sdk } from './support/context';

interface OutboxRow {
  topic: string;
  key: string;
  payload: { id: string; type: string; object: { type: string; id: string }; data: Record<string, unknown> };
  published_at: Date | null;
}

function databaseUrl(): string {
  const env = JSON.parse(process.env.E2E_PLATFORM_ENV ?? '{}') as Record<string, string>;
  const url = env.DATABASE_URL ?? runningEmbeddedPostgresUrl(process.env.E2E_DATA_DIR ?? '');
  if (!url) throw new Error('cannot find the platform database');
  return url;
}

async function outboxRows(schema: string, objectId: string): Promise<OutboxRow[]> {
  const client = new Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT topic, key, payload, published_at FROM "${schema}"."outbox" WHERE key = $1 ORDER BY id`, [objectId]);
    return rows as OutboxRow[];
  } finally {
    await client.end();
  }
}

/** How the rows are awaited: read every 100 ms for up to 20 s (the last read is what the test then checks). */
const OUTBOX_POLL = { timeoutMs: 20_000, intervalMs: 100 };

describe('lifecycle events (outbox → bus)', () => {
  const mux = sdk();

  it('writes one event per change, in order, and publishes them', async () => {
    const r = await mux.video.playbackRestrictions.create({
      referrer: { allowed_domains: ['events.test'] },
      user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: true },
    });
    await mux.video.playbackRestrictions.updateReferrer(r.id, { allowed_domains: ['*'], allow_no_referrer: true });
    await mux.video.playbackRestrictions.delete(r.id);
    const rows = await readUntil(
      () => outboxRows('playback_auth', r.id),
      (rs) => rs.length === 3 && rs.every((x) => x.published_at),
      OUTBOX_POLL,
    );
    expect(rows.map((x) => x.topic)).toEqual([
      'video.playback_restriction.created.v1',
      'video.playback_restriction.updated.v1',
      'video.playback_restriction.deleted.v1',
    ]);
    for (const row of rows) {
      expect(row.published_at).not.toBeNull();
      expect(row.payload.object).toEqual({ type: 'playback_restriction', id: r.id });
    }
    expect(rows[1].payload.data).toMatchObject({
      id: r.id,
      referrer: { allowed_domains: ['*'], allow_no_referrer: true },
      user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: true },
    });
  });

  it('never puts a private key in a signing key event', async () => {
    const key = await mux.system.signingKeys.create();
    const rows = await readUntil(
      () => outboxRows('playback_auth', key.id),
      (rs) => rs.length === 1 && !!rs[0].published_at,
      OUTBOX_POLL,
    );
    expect(rows[0].topic).toBe('system.signing_key.created.v1');
    expect(JSON.stringify(rows[0].payload)).not.toContain(key.private_key!.slice(20, 60));
  });

  it('writes vocabulary events in the live service', async () => {
    const v = await mux.video.transcriptionVocabularies.create({ phrases: ['event'] });
    const rows = await readUntil(
      () => outboxRows('live', v.id),
      (rs) => rs.length === 1 && !!rs[0].published_at,
      OUTBOX_POLL,
    );
    expect(rows[0].topic).toBe('video.transcription_vocabulary.created.v1');
    expect(rows[0].payload.data).toMatchObject({ id: v.id, phrases: ['event'] });
  });

  // embedded mode has no broker to read from (the outbox tests above cover it), so this runs in production mode only
  const inProductionMode = platform.mode === 'production' ? it : it.skip;
  inProductionMode('reaches a Kafka consumer in production mode', async () => {
    const kafka = new Kafka({ brokers: process.env.TEST_KAFKA_BROKERS!.split(','), clientId: 'e2e', logLevel: logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId: `e2e-${Date.now()}` });
    const seen: Array<{ key: string; type: string }> = [];
    await consumer.connect();
    await consumer.subscribe({ topics: [onCluster('video.playback_restriction.created.v1')], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const event = JSON.parse(message.value!.toString()) as { type: string };
        seen.push({ key: message.key!.toString(), type: event.type });
      },
    });
    try {
      const created = await api('POST', '/video/v1/playback-restrictions', { body: { referrer: { allowed_domains: ['kafka.test'] } } });
      const id = created.body.data.id as string;
      const found = await readUntil(
        async () => seen.filter((s) => s.key === id),
        (s) => s.length > 0,
        { ...OUTBOX_POLL, timeoutMs: 30_000 },
      );
      expect(found).toEqual([{ key: id, type: 'video.playback_restriction.created' }]);
    } finally {
      await consumer.disconnect();
    }
  });
});
