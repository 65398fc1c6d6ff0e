import type { IHeaders } from 'kafkajs';
import { DEAD_LETTER_SUFFIX, DeadLetterInfo, PlatformEvent } from './event-bus.port';

export { errorText, parseEnvelope } from './event-envelope';

export function eventHeaders(event: PlatformEvent): Record<string, string> {
  return { 'event-id': event.id, 'event-type': event.type };
}

export interface DeadLetterCause {
  reason: string;
  group: string;
  topic: string;
  partition: number;
  offset: string;
}

/** The original headers plus why, where from and for which consumer group the message died. */
export function deadLetterHeaders(original: IHeaders | undefined, cause: DeadLetterCause): IHeaders {
  return {
    ...original,
    'dlq-reason': cause.reason,
    'dlq-group': cause.group,
    'original-topic': cause.topic,
    'original-partition': String(cause.partition),
    'original-offset': cause.offset,
  };
}

export function deadLetterTopicOf(topic: string): string {
  return topic + DEAD_LETTER_SUFFIX;
}

export function isDeadLetterTopic(topic: string): boolean {
  return topic.endsWith(DEAD_LETTER_SUFFIX);
}

/** A header as text (kafkajs hands headers to consumers as Buffers). */
export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/** Why, and from where, a message read from a dead-letter topic died (its `dlq-*` headers). */
export function deadLetterInfoOf(headers: IHeaders | undefined): DeadLetterInfo | undefined {
  const reason = headerText(headers, 'dlq-reason');
  if (reason === undefined) return undefined;
  return { reason, group: headerText(headers, 'dlq-group') ?? '', topic: headerText(headers, 'original-topic') ?? '' };
}
