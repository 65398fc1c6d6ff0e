/**
 * A lifecycle event as it travels on the bus. The shape is close to a Mux webhook body
 * so the webhook dispatcher forwards it with little mapping.
 */
export interface PlatformEvent<TData = Record<string, unknown>> {
  /** Unique per event; consumers use it to stay idempotent. */
  id: string;
  /** e.g. `video.playback_restriction.created` */
  type: string;
  /** ISO 8601 */
  occurred_at: string;
  object: { type: string; id: string };
  data: TData;
}

export interface DeliveryInfo {
  topic: string;
  key: string;
  /** 1 for the first delivery to this consumer group. */
  attempt: number;
}

export type EventHandler = (event: PlatformEvent, info: DeliveryInfo) => Promise<void>;

export interface Subscription {
  /** Consumer group: each group receives every event once; members of a group share them. */
  group: string;
  topics: string[];
  handle: EventHandler;
}

/**
 * The port between services and the broker. Adapters: in-process (embedded) and Kafka.
 * Ordering holds per key (the object id). A handler that keeps failing after
 * EVENT_MAX_ATTEMPTS tries sends the event to `<topic>.dlq`; nothing is dropped silently.
 */
export interface EventBus {
  /**
   * Begins delivery. The embedded process calls it once every service has subscribed, so
   * no consumer group misses an event published while the others were still booting.
   */
  start(): Promise<void>;
  /** Resolves once the broker holds the event (not once consumers have handled it). */
  publish(topic: string, key: string, event: PlatformEvent): Promise<void>;
  subscribe(subscription: Subscription): Promise<void>;
  close(): Promise<void>;
}

/** Topic of an event type: `video.asset.ready` → `video.asset.ready.v1`. */
export function topicOf(type: string): string {
  return `${type}.v1`;
}

export const DEAD_LETTER_SUFFIX = '.dlq';
