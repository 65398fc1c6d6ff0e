import path from 'node:path';
import { crossVariableProblems, envSchema } from './env.schema';
import { SERVICES, ServiceName } from './services';

/** Capture jobs as Pods (CAPTURE_*): where, from which image, and the release label that marks this installation's Pods. */
export interface CapturePodsConfig {
  /** CAPTURE_NAMESPACE; undefined: the service's own namespace in a cluster, else `default`. */
  namespace: string | undefined;
  image: string;
  /** CAPTURE_INSTANCE: the Pods' `app.kubernetes.io/instance` (the chart's release name). */
  instance: string;
  imagePullSecrets: string[];
}

export interface PlatformConfig {
  apiPort: number;
  /** METRICS_PORT: Prometheus `GET /metrics` of this process; 0 for none. */
  metricsPort: number;
  streamPort: number;
  /** Public base of playback URLs the platform writes itself (a master MP4's `url`); default `http://localhost:<streamPort>`. */
  streamBaseUrl: string;
  /**
   * The image host ({image_url}: thumbnails, animated GIF/WebP, storyboards), served by the playback service
   * beside the playback host. `baseUrl`: public base written into storyboard VTT/JSON; undefined: taken from
   * each request's Host (and X-Forwarded-Proto/Host), so the URLs work behind any proxy or domain.
   * `renderConcurrency`: images one process renders at once (each an ffmpeg run); more wait their turn.
   */
  images: { port: number; baseUrl?: string; renderConcurrency: number };
  /**
   * The beacon collector (mux-embed's `beaconCollectionDomain`), served by the analytics service on a port of its own.
   * Larger bodies are refused (413); more events per POST or keys per event are malformed (400); longer string values are
   * cut to `maxValueChars`. `trustProxy`: take the client address from X-Forwarded-For (behind a proxy that sets it).
   */
  collector: { port: number; maxBodyBytes: number; maxEventsPerPost: number; maxKeysPerEvent: number; maxValueChars: number; trustProxy: boolean };
  rtmpPort: number;
  /**
   * LIVE_LADDER: what a live session publishes. `passthrough`: the encoder's own rendition (stream-copied
   * when H.264/AAC, else transcoded); `full`: that plus the VOD ladder's lower rungs transcoded in real time.
   */
  liveLadder: 'passthrough' | 'full';
  /**
   * Web inputs' capture workers: the RTMP ingest they push to (CAPTURE_RTMP_URL, `rtmp://127.0.0.1:<RTMP_PORT>/app`
   * by default; the chart points it at the live Service), their frame rate, and the Chromium they run
   * (CHROMIUM_PATH, else `chromium`, `chromium-browser` or `google-chrome` on PATH). `kubernetes`: each job runs as
   * a Pod of its own (CAPTURE_LAUNCHER=kubernetes); undefined: as a child process of the service.
   */
  capture: { rtmpUrl: string; fps: number; chromiumPath: string | undefined; kubernetes: CapturePodsConfig | undefined };
  /** UDP port of the SRT ingest. */
  srtPort: number;
  /**
   * Spaces: the real-time host's port and public base (SPACES_BASE_URL, `http://localhost:<SPACES_PORT>`), the
   * broadcasts a space may have, the SFU's ICE ports and extra host addresses, and how long a dropped
   * participant still counts.
   */
  spaces: {
    port: number;
    baseUrl: string;
    broadcastLimit: number;
    icePorts: [number, number] | undefined;
    iceAddresses: string[];
    leaveGraceMs: number;
    /** How long a space stays active with nobody in it before it goes idle (0: at once). */
    emptyGraceMs: number;
    /** Visible participants one space takes at once (hidden compositors not counted). */
    participantLimit: number;
  };
  host: string;
  uploads: {
    /** Port of the uploads service's HTTP upload host (the `url` of a direct upload). */
    port: number;
    /** Public base of upload URLs; default `http://localhost:<port>`. */
    baseUrl: string;
    /** How often timed-out uploads and unfinished completions are looked for. */
    sweepMs: number;
  };
  dataDir: string;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** LOG_FORMAT: `json` (one object per line, with the service and the request id) or `text`; default json in production mode. */
  logFormat: 'text' | 'json';
  bootstrapToken?: { id: string; secret: string };
  webhook?: { url: string; secret: string };
  /** Undefined means embedded PGlite. */
  databaseUrl?: string;
  databasePoolSize: number;
  pglitePort: number;
  /** Undefined means the in-process event bus. */
  /** `namespace` prefixes every topic and consumer group: installations sharing one cluster stay apart. */
  kafka?: { brokers: string[]; clientId: string; namespace?: string };
  /** Undefined means the filesystem object store under dataDir. */
  s3?: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  /** Undefined means embedded chDB under dataDir. */
  clickhouseUrl?: string;
  /**
   * Delivery usage: `lagSeconds` is how long before the request the reportable window ends (Mux: 12 h;
   * 0 in tests to see fresh deliveries); `reportMs` how often the playback host reports what it served.
   */
  deliveryUsage: { lagSeconds: number; reportMs: number };
  /** The view builder: a view silent this long is closed as dropped (VIEW_SILENCE_SECONDS), the sweep interval, views kept in memory. */
  views: { silenceMs: number; sweepIntervalMs: number; cacheSize: number };
  /** Public base URL of the analytics service's HTTP port (COLLECTOR_PORT): beacons and export downloads. */
  collectorBaseUrl: string;
  /**
   * Daily view exports: download URLs signed with `urlSecret` (unset: a key kept under DATA_DIR/secrets), valid
   * `urlSeconds`; days kept `retentionDays`; the scheduler looks for a missing day every `checkMs`.
   */
  viewExports: { urlSecret?: string; urlSeconds: number; retentionDays: number; checkMs: number; includeToday: boolean };
  grpcBindHost: string;
  grpcUrls: Record<ServiceName, string>;
  rateLimit: { perSecond: number; burst: number };
  maxBodyBytes: number;
  outboxPollMs: number;
  eventMaxAttempts: number;
  media: {
    /** Undefined: PATH, then the binaries shipped in npm packages. */
    ffmpegPath?: string;
    ffprobePath?: string;
    /** Python with PocketSphinx for generated subtitles; undefined: `.cache/speech/venv` of the checkout, else `python3`. */
    speechPython?: string;
    inputMaxBytes: number;
    inputDownloadTimeoutSeconds: number;
    /** Longest wait for an input server's headers or next bytes before the download is given up. */
    inputDownloadIdleSeconds: number;
  };
  /**
   * OUTBOUND_ALLOW: addresses the platform may connect to for URLs users give it (asset inputs,
   * webhooks, simulcast targets, slate images): `public` only, plus `loopback`, plus `private` ranges.
   */
  outboundAllow: 'public' | 'loopback' | 'private';
  /**
   * `concurrency`: ladder encodes one transcoder process runs at once; `ingestConcurrency`: ingest phases
   * (download, probe, quick source rendition) it runs at once besides them; `taskConcurrency`: asset tasks
   * (tracks, MP4 renditions, master files) it runs at once besides both.
   */
  transcoder: { concurrency: number; ingestConcurrency: number; taskConcurrency: number; leaseSeconds: number; maxAttempts: number; pollMs: number };
  testAssetTtlSeconds: number;
  /** How long a temporary master MP4's URL works (spec: 24 hours); then master_access returns to `none`. */
  masterAccessSeconds: number;
  playback: {
    /** HMAC key of the grants on child playlist/segment URLs; undefined: a random key per process. */
    grantSecret?: string;
    grantSeconds: number;
  };
  webhookDelivery: { timeoutMs: number; maxAttempts: number; retryBaseMs: number; retryMaxMs: number; orderHoldMs: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment once, naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const parsed = envSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`)),
    ...crossVariableProblems(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const grpcUrls = Object.fromEntries(SERVICES.map((s) => [s.name, e[`${s.envPrefix}_GRPC_URL`]])) as Record<ServiceName, string>;
  return {
    apiPort: e.API_PORT,
    metricsPort: e.METRICS_PORT,
    streamPort: e.STREAM_PORT,
    streamBaseUrl: (e.STREAM_BASE_URL ?? `http://localhost:${e.STREAM_PORT}`).replace(/\/+$/, ''),
    images: {
      port: e.IMAGE_PORT,
      ...(e.IMAGE_BASE_URL ? { baseUrl: e.IMAGE_BASE_URL.replace(/\/+$/, '') } : {}),
      renderConcurrency: e.IMAGE_RENDER_CONCURRENCY,
    },
    collector: {
      port: e.COLLECTOR_PORT,
      maxBodyBytes: e.COLLECTOR_MAX_BODY_BYTES,
      maxEventsPerPost: e.COLLECTOR_MAX_EVENTS,
      maxKeysPerEvent: e.COLLECTOR_MAX_KEYS,
      maxValueChars: e.COLLECTOR_MAX_VALUE_CHARS,
      trustProxy: e.COLLECTOR_TRUST_PROXY,
    },
    rtmpPort: e.RTMP_PORT,
    liveLadder: e.LIVE_LADDER,
    capture: {
      rtmpUrl: (e.CAPTURE_RTMP_URL ?? `rtmp://127.0.0.1:${e.RTMP_PORT}/app`).replace(/\/+$/, ''),
      fps: e.CAPTURE_FPS,
      chromiumPath: e.CHROMIUM_PATH,
      kubernetes:
        e.CAPTURE_LAUNCHER === 'kubernetes' && e.CAPTURE_IMAGE
          ? {
              namespace: e.CAPTURE_NAMESPACE,
              image: e.CAPTURE_IMAGE,
              instance: e.CAPTURE_INSTANCE ?? 'video-platform',
              imagePullSecrets: (e.CAPTURE_IMAGE_PULL_SECRETS ?? '')
                .split(',')
                .map((n) => n.trim())
                .filter(Boolean),
            }
          : undefined,
    },
    srtPort: e.SRT_PORT,
    spaces: {
      port: e.SPACES_PORT,
      baseUrl: (e.SPACES_BASE_URL ?? `http://localhost:${e.SPACES_PORT}`).replace(/\/+$/, ''),
      broadcastLimit: e.SPACES_BROADCAST_LIMIT,
      icePorts: e.SPACES_ICE_PORTS ? (e.SPACES_ICE_PORTS.split('-').map(Number) as [number, number]) : undefined,
      iceAddresses: (e.SPACES_ICE_ADDRESSES ?? '')
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
      leaveGraceMs: e.SPACES_LEAVE_GRACE_SECONDS * 1000,
      participantLimit: e.SPACES_PARTICIPANT_LIMIT,
      emptyGraceMs: e.SPACES_EMPTY_GRACE_SECONDS * 1000,
    },
    host: e.HOST,
    uploads: {
      port: e.UPLOAD_PORT,
      baseUrl: (e.UPLOAD_BASE_URL ?? `http://localhost:${e.UPLOAD_PORT}`).replace(/\/+$/, ''),
      sweepMs: e.UPLOAD_SWEEP_MS,
    },
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.KAFKA_BROKERS ? 'json' : 'text'),
    bootstrapToken: e.ACCESS_TOKEN_ID && e.ACCESS_TOKEN_SECRET ? { id: e.ACCESS_TOKEN_ID, secret: e.ACCESS_TOKEN_SECRET } : undefined,
    webhook: e.WEBHOOK_URL && e.WEBHOOK_SECRET ? { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET } : undefined,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    pglitePort: e.PGLITE_PORT,
    kafka: e.KAFKA_BROKERS
      ? {
          brokers: e.KAFKA_BROKERS.split(',').map((b) => b.trim()),
          clientId: e.KAFKA_CLIENT_ID,
          ...(e.KAFKA_NAMESPACE ? { namespace: e.KAFKA_NAMESPACE } : {}),
        }
      : undefined,
    s3:
      e.S3_ENDPOINT && e.S3_ACCESS_KEY && e.S3_SECRET_KEY
        ? { endpoint: e.S3_ENDPOINT, accessKey: e.S3_ACCESS_KEY, secretKey: e.S3_SECRET_KEY, bucket: e.S3_BUCKET, region: e.S3_REGION }
        : undefined,
    clickhouseUrl: e.CLICKHOUSE_URL,
    deliveryUsage: { lagSeconds: e.DELIVERY_USAGE_LAG_SECONDS, reportMs: e.DELIVERY_REPORT_MS },
    views: { silenceMs: e.VIEW_SILENCE_SECONDS * 1000, sweepIntervalMs: e.VIEW_SWEEP_SECONDS * 1000, cacheSize: e.VIEW_STATE_CACHE_SIZE },
    collectorBaseUrl: (e.COLLECTOR_BASE_URL ?? `http://localhost:${e.COLLECTOR_PORT}`).replace(/\/+$/, ''),
    viewExports: {
      urlSecret: e.EXPORT_URL_SECRET,
      urlSeconds: e.EXPORT_URL_SECONDS,
      retentionDays: e.EXPORT_RETENTION_DAYS,
      checkMs: e.EXPORT_CHECK_MS,
      includeToday: e.EXPORT_INCLUDE_TODAY,
    },
    grpcBindHost: e.GRPC_BIND_HOST,
    grpcUrls,
    rateLimit: { perSecond: e.RATE_LIMIT_PER_SECOND, burst: e.RATE_LIMIT_BURST },
    maxBodyBytes: e.MAX_BODY_BYTES,
    outboxPollMs: e.OUTBOX_POLL_MS,
    eventMaxAttempts: e.EVENT_MAX_ATTEMPTS,
    media: {
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
      speechPython: e.SPEECH_PYTHON,
      inputMaxBytes: e.INPUT_MAX_BYTES,
      inputDownloadTimeoutSeconds: e.INPUT_DOWNLOAD_TIMEOUT_SECONDS,
      inputDownloadIdleSeconds: e.INPUT_DOWNLOAD_IDLE_SECONDS,
    },
    outboundAllow: e.OUTBOUND_ALLOW,
    transcoder: {
      concurrency: e.TRANSCODER_CONCURRENCY,
      ingestConcurrency: e.TRANSCODER_INGEST_CONCURRENCY,
      taskConcurrency: e.TRANSCODER_TASK_CONCURRENCY,
      leaseSeconds: e.TRANSCODER_LEASE_SECONDS,
      maxAttempts: e.TRANSCODER_MAX_ATTEMPTS,
      pollMs: e.TRANSCODER_POLL_MS,
    },
    testAssetTtlSeconds: e.TEST_ASSET_TTL_SECONDS,
    masterAccessSeconds: e.MASTER_ACCESS_SECONDS,
    playback: { grantSecret: e.PLAYBACK_GRANT_SECRET, grantSeconds: e.PLAYBACK_GRANT_SECONDS },
    webhookDelivery: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: e.WEBHOOK_RETRY_MAX_MS,
      orderHoldMs: e.WEBHOOK_ORDER_HOLD_MS,
    },
  };
}
