import { onCluster } from './kafka-names';
import { Admin, Kafka, logLevel } from 'kafkajs';
import { withPlatformDatabase } from './platform-db';

/** The schemas whose services publish events (each has an outbox and a relay). */
export const OUTBOX_SCHEMAS = ['assets', 'uploads', 'live', 'playback_auth', 'web_inputs', 'spaces'] as const;
/** The schemas whose services consume events with a `processed_events` record. */
export const CONSUMER_SCHEMAS = ['transcoder', 'uploads', 'live'] as const;

/** Marks every outbox row of every service unpublished: each relay publishes all of it again. Returns how many rows. */
export async function republishEverything(): Promise<number> {
  return withPlatformDatabase(async (db) => {
    let rows = 0;
    for (const schema of OUTBOX_SCHEMAS) rows += (await db.query(`UPDATE "${schema}"."outbox" SET "published_at" = NULL`)).rowCount ?? 0;
    return rows;
  });
}

export async function unpublishedRows(): Promise<number> {
  return withPlatformDatabase(async (db) => {
    let n = 0;
    for (const schema of OUTBOX_SCHEMAS)
      n += Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."outbox" WHERE "published_at" IS NULL`)).rows[0].n);
    return n;
  });
}

/** Event ids of the outbox rows of these objects, per schema: keyed by them, or of their assets (tracks, static renditions). */
export async function outboxEventIds(ids: string[]): Promise<Record<string, string[]>> {
  return withPlatformDatabase(async (db) => {
    const out: Record<string, string[]> = {};
    for (const schema of OUTBOX_SCHEMAS) {
      const { rows } = await db.query(
        `SELECT "event_id" FROM "${schema}"."outbox" WHERE "key" = ANY($1::text[]) OR "payload" -> 'data' ->> 'asset_id' = ANY($1::text[]) ORDER BY "id"`,
        [ids],
      );
      out[schema] = (rows as Array<{ event_id: string }>).map((r) => r.event_id);
    }
    return out;
  });
}

/**
 * `schema consumer` → how many of these events it recorded as processed. Scoped to the events a test
 * made: the platform is shared by the run's files, whose late events (an asset erroring after its
 * drill) are recorded whenever they come.
 */
export async function processedCounts(eventIds: string[]): Promise<Record<string, number>> {
  return withPlatformDatabase(async (db) => {
    const out: Record<string, number> = {};
    for (const schema of CONSUMER_SCHEMAS) {
      const { rows } = await db.query(
        `SELECT "consumer", count(*)::int AS n FROM "${schema}"."processed_events" WHERE "event_id" = ANY($1::text[]) GROUP BY "consumer"`,
        [eventIds],
      );
      for (const r of rows as Array<{ consumer: string; n: number }>) out[`${schema} ${r.consumer}`] = r.n;
    }
    return out;
  });
}

export async function processedIds(schema: (typeof CONSUMER_SCHEMAS)[number], consumer: string): Promise<Set<string>> {
  return withPlatformDatabase(async (db) => {
    const { rows } = await db.query(`SELECT "event_id" FROM "${schema}"."processed_events" WHERE "consumer" = $1`, [consumer]);
    return new Set((rows as Array<{ event_id: string }>).map((r) => r.event_id));
  });
}

export interface JobRow {
  asset_id: string;
  status: string;
  attempts: number;
  updated_at: string;
}

export async function jobsOf(assetIds: string[]): Promise<JobRow[]> {
  return withPlatformDatabase(async (db) => {
    const { rows } = await db.query(
      `SELECT "asset_id", "status", "attempts", "updated_at"::text AS "updated_at" FROM "transcoder"."jobs" WHERE "asset_id" = ANY($1::text[]) ORDER BY "asset_id"`,
      [assetIds],
    );
    return rows as JobRow[];
  });
}

/** Events in any outbox whose webhook is not sent (or given up) yet: 0 once every webhook has gone out. */
export async function unsentWebhooks(): Promise<number> {
  return withPlatformDatabase(async (db) => {
    const { rows } = await db.query<{ event_id: string }>(`SELECT "event_id" FROM "webhooks"."deliveries" WHERE "status" <> 'pending'`);
    const settled = new Set(rows.map((r) => r.event_id));
    let unsent = 0;
    for (const schema of OUTBOX_SCHEMAS) {
      const outbox = await db.query<{ event_id: string }>(`SELECT "event_id" FROM "${schema}"."outbox"`);
      unsent += outbox.rows.filter((r) => !settled.has(r.event_id)).length;
    }
    return unsent;
  });
}

/** How many messages the groups have not yet handled on these topics (Kafka: high watermark minus committed offset). */
export async function kafkaLag(brokers: string[], groups: Record<string, string[]>): Promise<number> {
  const kafka = new Kafka({ brokers, clientId: 'e2e-lag', logLevel: logLevel.NOTHING });
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    let lag = 0;
    for (const [group, topics] of Object.entries(groups)) {
      const committed = await admin.fetchOffsets({ groupId: onCluster(group), topics: topics.map(onCluster) });
      for (const { topic, partitions } of committed) {
        const ends = await admin.fetchTopicOffsets(topic);
        for (const end of ends) {
          const at = Number(partitions.find((p) => p.partition === end.partition)?.offset ?? '-1');
          lag += Number(end.high) - (at < 0 ? Number(end.low) : at);
        }
      }
    }
    return lag;
  } finally {
    await admin.disconnect();
  }
}
