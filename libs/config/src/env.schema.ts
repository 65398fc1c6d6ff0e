import { z } from 'zod';
import { SERVICES } from './services';

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');
const url = (protocols: string[]) =>
  optionalText.refine((v) => v === undefined || (URL.canParse(v) && protocols.includes(new URL(v).protocol)), {
    message: `must be a URL (${protocols.join(' or ')})`,
  });
// Kubernetes names (RFC 1123) and label values, for the capture Pods' settings
const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
const hostPort = z.string().regex(/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/, 'must be host:port');

const grpcUrls = Object.fromEntries(SERVICES.map((s) => [`${s.envPrefix}_GRPC_URL`, hostPort.default(`127.0.0.1:${s.grpcPort}`)])) as Record<
  `${(typeof SERVICES)[number]['envPrefix']}_GRPC_URL`,
  z.ZodDefault<typeof hostPort>
>;

export const envSchema = z.object({
  API_PORT: port(8080),
  STREAM_PORT: port(8081),
  RTMP_PORT: port(1935),
  SRT_PORT: port(6001),
  LIVE_LADDER: z.enum(['passthrough', 'full']).default('passthrough'),
  CAPTURE_RTMP_URL: url(['rtmp:']),
  CAPTURE_FPS: z.coerce.number().int().min(1).max(60).default(30),
  CHROMIUM_PATH: z.string().min(1).optional(),
  // where capture jobs run: `local` child processes of the service, `kubernetes` a Pod each (what the chart sets)
  CAPTURE_LAUNCHER: z.enum(['local', 'kubernetes']).default('local'),
  CAPTURE_NAMESPACE: optionalText.refine((v) => v === undefined || DNS_LABEL.test(v), {
    message: 'must be a Kubernetes namespace name (lowercase letters, digits and dashes, at most 63)',
  }),
  CAPTURE_IMAGE: optionalText,
  CAPTURE_INSTANCE: optionalText.refine((v) => v === undefined || LABEL_VALUE.test(v), {
    message: 'must be a Kubernetes label value (at most 63 letters, digits, dashes, dots or underscores, alphanumeric at both ends)',
  }),
  CAPTURE_IMAGE_PULL_SECRETS: optionalText.refine((v) => v === undefined || v.split(',').every((n) => DNS_SUBDOMAIN.test(n.trim())), {
    message: 'must be a comma-separated list of Secret names',
  }),
  UPLOAD_PORT: port(8082),
  UPLOAD_BASE_URL: url(['http:', 'https:']),
  STREAM_BASE_URL: url(['http:', 'https:']),
  IMAGE_PORT: port(8083),
  IMAGE_BASE_URL: url(['http:', 'https:']),
  IMAGE_RENDER_CONCURRENCY: positiveInt(2),
  COLLECTOR_PORT: port(8084),
  COLLECTOR_MAX_BODY_BYTES: positiveInt(512 * 1024),
  COLLECTOR_MAX_EVENTS: positiveInt(300),
  COLLECTOR_MAX_KEYS: positiveInt(500),
  COLLECTOR_MAX_VALUE_CHARS: positiveInt(8 * 1024),
  COLLECTOR_TRUST_PROXY: bool(false),
  // spaces' real-time host: join page, browser client, compositor page and the WebSocket signaling
  SPACES_PORT: port(8085),
  SPACES_BASE_URL: url(['http:', 'https:']),
  SPACES_BROADCAST_LIMIT: positiveInt(1),
  // UDP ports of the SFU's ICE candidates (`min-max`); unset: any free port
  SPACES_ICE_PORTS: z
    .string()
    .regex(/^\d{1,5}-\d{1,5}$/, 'must be min-max, e.g. 40000-40100')
    .refine((v) => {
      const [min, max] = v.split('-').map(Number);
      return min >= 1024 && min <= max && max <= 65535;
    }, 'must be a range of ports from 1024 to 65535, min first')
    .optional(),
  // addresses announced as ICE host candidates besides the interfaces' own (a node's or load balancer's IP)
  SPACES_ICE_ADDRESSES: z.string().optional(),
  // seconds a participant whose connection dropped is still counted (Jibri: 30)
  SPACES_LEAVE_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(30),
  SPACES_EMPTY_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  SPACES_PARTICIPANT_LIMIT: z.coerce.number().int().min(1).max(1000).default(16),
  HOST: z.string().default('0.0.0.0'),
  // Prometheus `GET /metrics` of the process (every service it runs); 0: none (the default, so
  // processes side by side need no port of their own; the chart sets 9464)
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  DATA_DIR: z.string().min(1).default('./.data'),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  // unset: json with the production adapters (KAFKA_BROKERS set), text otherwise
  LOG_FORMAT: z.enum(['text', 'json']).optional(),

  ACCESS_TOKEN_ID: optionalText,
  ACCESS_TOKEN_SECRET: optionalText,
  WEBHOOK_URL: url(['http:', 'https:']),
  WEBHOOK_SECRET: optionalText,

  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATABASE_POOL_SIZE: positiveInt(5),
  PGLITE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  KAFKA_BROKERS: optionalText.refine((v) => v === undefined || v.split(',').every((b) => hostPort.safeParse(b.trim()).success), {
    message: 'must be a comma-separated list of host:port',
  }),
  KAFKA_CLIENT_ID: z.string().default('video-platform'),
  KAFKA_NAMESPACE: optionalText.refine((v) => v === undefined || /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(v), {
    message: 'must be up to 100 letters, digits, dots, dashes or underscores',
  }),
  S3_ENDPOINT: url(['http:', 'https:']),
  S3_ACCESS_KEY: optionalText,
  S3_SECRET_KEY: optionalText,
  S3_BUCKET: z.string().default('video-platform'),
  S3_REGION: z.string().default('us-east-1'),
  CLICKHOUSE_URL: url(['http:', 'https:']),
  DELIVERY_USAGE_LAG_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(90 * 24 * 60 * 60)
    .default(12 * 60 * 60),
  DELIVERY_REPORT_MS: positiveInt(10_000),
  VIEW_SILENCE_SECONDS: positiveInt(60 * 60),
  VIEW_SWEEP_SECONDS: positiveInt(60),
  VIEW_STATE_CACHE_SIZE: positiveInt(20_000),
  COLLECTOR_BASE_URL: url(['http:', 'https:']),
  EXPORT_URL_SECRET: optionalText,
  EXPORT_URL_SECONDS: positiveInt(60 * 60),
  EXPORT_RETENTION_DAYS: positiveInt(7),
  EXPORT_CHECK_MS: positiveInt(5 * 60_000),
  EXPORT_INCLUDE_TODAY: bool(false),

  GRPC_BIND_HOST: z.string().default('127.0.0.1'),
  ...grpcUrls,

  RATE_LIMIT_PER_SECOND: positiveInt(50),
  RATE_LIMIT_BURST: positiveInt(200),
  MAX_BODY_BYTES: positiveInt(1024 * 1024),
  OUTBOX_POLL_MS: positiveInt(500),
  EVENT_MAX_ATTEMPTS: positiveInt(5),
  EMBEDDED: bool(true),

  FFMPEG_PATH: optionalText,
  FFPROBE_PATH: optionalText,
  SPEECH_PYTHON: optionalText,
  OUTBOUND_ALLOW: z.enum(['public', 'loopback', 'private']).default('loopback'),
  INPUT_MAX_BYTES: positiveInt(50 * 1024 ** 3),
  INPUT_DOWNLOAD_TIMEOUT_SECONDS: positiveInt(3600),
  INPUT_DOWNLOAD_IDLE_SECONDS: positiveInt(60),
  TRANSCODER_CONCURRENCY: positiveInt(1),
  TRANSCODER_INGEST_CONCURRENCY: positiveInt(4),
  TRANSCODER_TASK_CONCURRENCY: positiveInt(2),
  TRANSCODER_LEASE_SECONDS: positiveInt(30),
  TRANSCODER_MAX_ATTEMPTS: positiveInt(3),
  TRANSCODER_POLL_MS: positiveInt(1000),
  TEST_ASSET_TTL_SECONDS: positiveInt(24 * 60 * 60),
  MASTER_ACCESS_SECONDS: positiveInt(24 * 60 * 60),

  UPLOAD_SWEEP_MS: positiveInt(5000),

  PLAYBACK_GRANT_SECRET: optionalText,
  PLAYBACK_GRANT_SECONDS: positiveInt(6 * 60 * 60),

  WEBHOOK_TIMEOUT_MS: positiveInt(5000),
  WEBHOOK_MAX_ATTEMPTS: positiveInt(12),
  WEBHOOK_RETRY_BASE_MS: positiveInt(1000),
  WEBHOOK_RETRY_MAX_MS: positiveInt(60 * 60 * 1000),
  WEBHOOK_ORDER_HOLD_MS: z.coerce.number().int().min(0).default(1000),
});

/** Rules across variables, checked on the raw environment so they are reported with the field errors. */
export function crossVariableProblems(env: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const problems: string[] = [];
  const pair = (a: string, b: string) => {
    if (set(a) !== set(b)) problems.push(`${set(a) ? b : a}: must be set together with ${set(a) ? a : b}`);
  };
  pair('ACCESS_TOKEN_ID', 'ACCESS_TOKEN_SECRET');
  pair('WEBHOOK_URL', 'WEBHOOK_SECRET');
  if ((env.IMAGE_PORT ?? '8083').trim() === (env.STREAM_PORT ?? '8081').trim()) problems.push('IMAGE_PORT: must differ from STREAM_PORT');
  const httpPorts = { API_PORT: '8080', STREAM_PORT: '8081', UPLOAD_PORT: '8082', IMAGE_PORT: '8083' };
  const collectorPort = (env.COLLECTOR_PORT ?? '8084').trim();
  for (const [name, fallback] of Object.entries(httpPorts)) {
    if ((env[name] ?? fallback).trim() === collectorPort) problems.push(`COLLECTOR_PORT: must differ from ${name}`);
  }
  const spacesPort = (env.SPACES_PORT ?? '8085').trim();
  for (const [name, fallback] of Object.entries({ ...httpPorts, COLLECTOR_PORT: '8084' })) {
    if ((env[name] ?? fallback).trim() === spacesPort) problems.push(`SPACES_PORT: must differ from ${name}`);
  }
  if ((env.CAPTURE_LAUNCHER ?? '').trim() === 'kubernetes' && !set('CAPTURE_IMAGE')) {
    problems.push('CAPTURE_IMAGE: required with CAPTURE_LAUNCHER=kubernetes (the platform image the capture Pods run)');
  }
  if (set('S3_ENDPOINT') && (!set('S3_ACCESS_KEY') || !set('S3_SECRET_KEY'))) {
    problems.push('S3_ACCESS_KEY: S3_ACCESS_KEY and S3_SECRET_KEY are required with S3_ENDPOINT');
  }
  return problems;
}

export type Env = z.infer<typeof envSchema>;
