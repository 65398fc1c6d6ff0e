import { counter, gauge, histogram, observeGauge, ObservedSeries } from './registry';

/**
 * The platform's metrics, one definition each (names follow Prometheus' conventions: `_total` counters,
 * `_seconds` and `_bytes` units). Series carry the `service` that counts them (the bus's, its consumer group).
 */
export const platformMetrics = {
  /** HTTP servers (the gateway's REST API, the playback, image, upload and collector hosts). */
  httpRequests: () => counter('http_requests_total', 'HTTP requests answered, by route and status', ['service', 'method', 'route', 'status']),
  httpDuration: () => histogram('http_request_duration_seconds', 'HTTP request latency, by route and status', ['service', 'method', 'route', 'status']),
  /** gRPC methods served. */
  grpcDuration: () => histogram('grpc_server_handling_seconds', 'gRPC call latency on the server, by method and outcome', ['service', 'method', 'code']),
  /** The event bus (outbox relays to Kafka or the in-process bus). */
  eventsConsumed: () => counter('bus_events_consumed_total', 'Event deliveries to a consumer, by consumer group and outcome', ['group', 'outcome']),
  deadLetters: () => counter('bus_dead_letters_total', 'Events parked in a dead-letter topic (invalid, or failed every retry), by consumer group', ['group']),
  consumerLag: (read: () => Promise<Array<ObservedSeries<'group' | 'topic'>>>) =>
    observeGauge('bus_consumer_lag', 'Events published and not yet handled, by consumer group and topic (read at scrape)', ['group', 'topic'], read),
  /** Live ingest. */
  liveSessions: () => gauge('live_encoder_sessions', 'Encoder sessions this process records now', ['service']),
  liveIngestBytes: () => counter('live_ingest_bytes_total', 'Media bytes of live segments stored (the encoder rendition)', ['service']),
  /** Transcoder. */
  transcoderJobs: () => counter('transcoder_jobs_total', 'Transcoding job phases finished, by phase and outcome', ['service', 'phase', 'outcome']),
  transcoderQueue: (read: () => Promise<Array<ObservedSeries<'phase' | 'status'>>>) =>
    observeGauge('transcoder_queue_jobs', 'Transcoding jobs queued or running, by phase and status (read at scrape)', ['phase', 'status'], read),
  transcoderJobDuration: () =>
    histogram('transcoder_job_duration_seconds', 'Transcoding job phase durations', ['service', 'phase'], [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600]),
  /** Webhooks. */
  webhookAttempts: () => counter('webhook_delivery_attempts_total', 'Webhook delivery attempts, by outcome', ['service', 'outcome']),
  /** Direct uploads. */
  uploadBytes: () => counter('upload_bytes_total', 'Bytes received by the direct-upload host', ['service']),
};
