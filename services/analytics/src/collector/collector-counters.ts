/** What one collector process has seen since it started; served as JSON by `GET /healthz` on the collector port. */
export class CollectorCounters {
  /** POSTs answered 200. */
  acceptedPosts = 0;
  /** Events published (in accepted POSTs). */
  acceptedEvents = 0;
  /** Batches published (one per view per POST). */
  publishedBatches = 0;
  /** POSTs answered 400 (not JSON, wrong shape, over the event or key limits). */
  rejectedMalformed = 0;
  /** POSTs answered 413 (body over COLLECTOR_MAX_BODY_BYTES). */
  rejectedTooLarge = 0;
  /** POSTs answered 503 (the bus refused a batch; the player resends). */
  publishFailures = 0;
  /** String values cut to COLLECTOR_MAX_VALUE_CHARS. */
  truncatedValues = 0;
  /** Events dropped for having no view id. */
  eventsWithoutView = 0;

  snapshot(): Record<string, number> {
    return Object.fromEntries(Object.entries(this).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  }
}
