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

/** Why a message read from a dead-letter topic died, and where. */
export interface DeadLetterInfo {
  /** e.g. `invalid event: data.status: …`, `handler failed 5 times: …`, `poison message: …` */
  reason: string;
  /** The consumer group that gave up on it. */
  group: string;
  /** The topic it was first published to. */
  topic: string;
}

export interface DeliveryInfo {
  topic: string;
  key: string;
  /** 1 for the first delivery to this consumer group. */
  attempt: number;
  /** Only on dead-letter topics: why the message is there. */
  deadLetter?: DeadLetterInfo;
}

/** How far a consumer group is behind on one topic: events published and not yet handled. */
export interface ConsumerLag {
  group: string;
  topic: string;
  lag: number;
}

export type EventHandler = (event: PlatformEvent, info: DeliveryInfo) => Promise<void>;

export interface Subscription {
  /** Consumer group: each group receives every event once; members of a group share them. */
  group: string;
  topics: string[];
  /**
   * Checked before the handler: a reason makes the event a dead letter at once, without trying
   * the handler (a malformed event does not become valid by retrying).
   */
  validate?: (event: PlatformEvent, topic: string) => string | undefined;
  handle: EventHandler;
}

/**
 * The port between services and the broker. Adapters: in-process (embedded) and Kafka.
 * Ordering holds per key (the object id). An event that is not an envelope, or that its
 * subscription's `validate` refuses, goes to `<topic>.dlq` at once; a handler that keeps failing
 * after EVENT_MAX_ATTEMPTS tries sends the event there too; each dead letter carries its reason
 * (`DeliveryInfo.deadLetter` for readers of the dead-letter topic). Nothing is dropped silently.
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
  /**
   * The lag of every group subscribed through this bus, per topic it reads, in the platform's names. Kafka: the partitions' end offsets minus the group's committed offsets; in process:
   * the events queued or being handled.
   */
  consumerLag(): Promise<ConsumerLag[]>;
  close(): Promise<void>;
}

export const DEAD_LETTER_SUFFIX = '.dlq';
