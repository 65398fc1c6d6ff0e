import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { EventBus, PlatformEvent } from './event-bus.port';
import { describeIssues } from './event-validation';

/**
 * A data-plane stream: high-volume measurements (player beacons, deliveries) that travel on the
 * bus like lifecycle events but are not lifecycle events: they are not in the event registry (so
 * the webhook dispatcher never forwards them), have no outbox (their producers hold no state: a
 * publish that fails is answered with an error so the sender retries), and their consumers are
 * idempotent on their own keys (a view's sequence numbers, a batch id).
 */
export interface DataStream<S extends z.ZodType = z.ZodType> {
  /** `data.beacons`: the envelope's `type`. */
  readonly name: string;
  /** The topic is `<name>.v<version>`. */
  readonly version: number;
  readonly objectType: string;
  readonly data: S;
  /** The bus key (ordering holds per key), from the data. */
  readonly key: (data: z.output<S>) => string;
}

export function dataTopicOf(stream: DataStream): string {
  return `${stream.name}.v${stream.version}`;
}

/** Beacon values after key expansion and enrichment: mux-embed's full names, JSON scalars. */
const beaconEventSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/**
 * What the collector publishes for one view out of one POST: the view's events in the order the
 * player sent them, keys expanded (`xid` → `view_id`), with the collector's enrichment (user agent
 * and address derived fields) on each event.
 */
export const beaconBatchSchema = z.object({
  view_id: z.string().min(1),
  /** Server receive time, epoch ms. */
  received_at: z.number().int(),
  events: z.array(beaconEventSchema).min(1),
});
export type BeaconBatch = z.output<typeof beaconBatchSchema>;

export const BEACONS_STREAM: DataStream<typeof beaconBatchSchema> = {
  name: 'data.beacons',
  version: 1,
  objectType: 'view',
  data: beaconBatchSchema,
  key: (d) => d.view_id,
};

/** One rendition of one playback id served in one hour by one playback host, summed. */
export const deliveryItemSchema = z.object({
  /** Start of the hour, ISO 8601 (`2026-11-27T13:00:00.000Z`). */
  hour: z.string(),
  playback_id: z.string(),
  asset_id: z.string().nullable(),
  live_stream_id: z.string().nullable(),
  /** `audio_only`, `720p`, `1080p`, `1440p`, `2160p` (Mux's delivery tiers, by pixel count). */
  resolution_tier: z.string(),
  /** Media seconds of the segments served. */
  media_seconds: z.number().nonnegative(),
  bytes: z.number().int().nonnegative(),
  segments: z.number().int().nonnegative(),
});
export type DeliveryItem = z.output<typeof deliveryItemSchema>;

/** A playback host's report of what it served since its previous report. */
export const deliveryBatchSchema = z.object({
  /** Unique per report: the consumer's idempotency key. */
  id: z.string().min(1),
  reported_at: z.string(),
  items: z.array(deliveryItemSchema).min(1),
});
export type DeliveryBatch = z.output<typeof deliveryBatchSchema>;

export const DELIVERIES_STREAM: DataStream<typeof deliveryBatchSchema> = {
  name: 'data.deliveries',
  version: 1,
  objectType: 'delivery_batch',
  data: deliveryBatchSchema,
  key: (d) => d.id,
};

/** Validates `data` against the stream's schema (a producer bug throws) and publishes it. */
export async function publishData<S extends z.ZodType>(bus: EventBus, stream: DataStream<S>, data: z.output<S>, now = new Date()): Promise<void> {
  const parsed = stream.data.safeParse(data);
  if (!parsed.success) throw new Error(`${stream.name}: data does not match its schema: ${describeIssues(parsed.error)}`);
  const key = stream.key(parsed.data);
  const event: PlatformEvent = {
    id: randomUUID(),
    type: stream.name,
    occurred_at: now.toISOString(),
    object: { type: stream.objectType, id: key },
    data: parsed.data as Record<string, unknown>,
  };
  await bus.publish(dataTopicOf(stream), key, event);
}

/** A Subscription `validate` for one stream: why an envelope is not one of its messages, or undefined. */
export function validateDataEvent(stream: DataStream): (event: PlatformEvent, topic: string) => string | undefined {
  return (event, topic) => {
    if (event.type !== stream.name) return `type ${event.type} is not ${stream.name}`;
    if (topic !== dataTopicOf(stream)) return `${event.type} arrived on ${topic}; its topic is ${dataTopicOf(stream)}`;
    const parsed = stream.data.safeParse(event.data);
    if (!parsed.success) return `data does not match ${dataTopicOf(stream)}: ${describeIssues(parsed.error)}`;
    return undefined;
  };
}
