import path from 'node:path';
import { ConfigError, loadConfig } from './platform-config';

describe('loadConfig', () => {
  it('gives embedded defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c.apiPort).toBe(8080);
    expect(c.streamPort).toBe(8081);
    expect(c.rtmpPort).toBe(1935);
    expect(c.srtPort).toBe(6001);
    expect(c.liveLadder).toBe('passthrough');
    expect(c.uploads).toEqual({ port: 8082, baseUrl: 'http://localhost:8082', sweepMs: 5000 });
    expect(c.images).toEqual({ port: 8083, renderConcurrency: 2 });
    expect(c.dataDir).toBe(path.resolve('./.data'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.kafka).toBeUndefined();
    expect(c.s3).toBeUndefined();
    expect(c.bootstrapToken).toBeUndefined();
    expect(c.grpcUrls['playback-auth']).toBe('127.0.0.1:50054');
    expect(c.outboundAllow).toBe('loopback');
  });

  it('takes the image host port, public base and render concurrency, the port apart from the playback host', () => {
    expect(loadConfig({ IMAGE_PORT: '9083', IMAGE_BASE_URL: 'https://image.example.com/', IMAGE_RENDER_CONCURRENCY: '4' }).images).toEqual({
      port: 9083,
      baseUrl: 'https://image.example.com',
      renderConcurrency: 4,
    });
    expect(() => loadConfig({ IMAGE_PORT: '8081' })).toThrow(/IMAGE_PORT: must differ from STREAM_PORT/);
    expect(() => loadConfig({ STREAM_PORT: '9000', IMAGE_PORT: '9000' })).toThrow(/IMAGE_PORT/);
    expect(() => loadConfig({ IMAGE_BASE_URL: 'ftp://x' })).toThrow(/IMAGE_BASE_URL/);
    expect(() => loadConfig({ IMAGE_RENDER_CONCURRENCY: '0' })).toThrow(/IMAGE_RENDER_CONCURRENCY/);
    expect(() => loadConfig({ LIVE_LADDER: 'some' })).toThrow(/LIVE_LADDER/);
    expect(loadConfig({ LIVE_LADDER: 'full' }).liveLadder).toBe('full');
  });

  it('takes the beacon collector port and limits, the port apart from the other HTTP ports', () => {
    expect(loadConfig({}).collector).toEqual({
      port: 8084,
      maxBodyBytes: 512 * 1024,
      maxEventsPerPost: 300,
      maxKeysPerEvent: 500,
      maxValueChars: 8192,
      trustProxy: false,
    });
    const env = {
      COLLECTOR_PORT: '9084',
      COLLECTOR_MAX_BODY_BYTES: '1000',
      COLLECTOR_MAX_EVENTS: '10',
      COLLECTOR_MAX_KEYS: '20',
      COLLECTOR_MAX_VALUE_CHARS: '30',
      COLLECTOR_TRUST_PROXY: 'true',
    };
    expect(loadConfig(env).collector).toEqual({
      port: 9084,
      maxBodyBytes: 1000,
      maxEventsPerPost: 10,
      maxKeysPerEvent: 20,
      maxValueChars: 30,
      trustProxy: true,
    });
    expect(() => loadConfig({ COLLECTOR_PORT: '8083' })).toThrow(/COLLECTOR_PORT: must differ from IMAGE_PORT/);
    expect(() => loadConfig({ COLLECTOR_PORT: '8080' })).toThrow(/COLLECTOR_PORT: must differ from API_PORT/);
    expect(() => loadConfig({ STREAM_PORT: '9000', COLLECTOR_PORT: '9000' })).toThrow(/COLLECTOR_PORT: must differ from STREAM_PORT/);
    expect(() => loadConfig({ UPLOAD_PORT: '9001', COLLECTOR_PORT: '9001' })).toThrow(/COLLECTOR_PORT/);
    expect(() => loadConfig({ COLLECTOR_MAX_EVENTS: '0' })).toThrow(/COLLECTOR_MAX_EVENTS/);
  });

  it('takes the spaces host, its broadcast and participant limits, ICE ports and addresses, leave and empty graces, the port apart from the other HTTP ports', () => {
    expect(loadConfig({}).spaces).toEqual({
      port: 8085,
      baseUrl: 'http://localhost:8085',
      broadcastLimit: 1,
      icePorts: undefined,
      iceAddresses: [],
      leaveGraceMs: 30_000,
      participantLimit: 16,
      emptyGraceMs: 10_000,
    });
    const c = loadConfig({
      SPACES_PORT: '9085',
      SPACES_BASE_URL: 'http://spaces.internal:9085/',
      SPACES_BROADCAST_LIMIT: '2',
      SPACES_ICE_PORTS: '40000-40100',
      SPACES_ICE_ADDRESSES: '203.0.113.5, 198.51.100.7',
      SPACES_LEAVE_GRACE_SECONDS: '5',
      SPACES_PARTICIPANT_LIMIT: '4',
      SPACES_EMPTY_GRACE_SECONDS: '0',
    });
    expect(c.spaces).toEqual({
      port: 9085,
      baseUrl: 'http://spaces.internal:9085',
      broadcastLimit: 2,
      icePorts: [40000, 40100],
      iceAddresses: ['203.0.113.5', '198.51.100.7'],
      leaveGraceMs: 5000,
      participantLimit: 4,
      emptyGraceMs: 0,
    });
    expect(() => loadConfig({ SPACES_PARTICIPANT_LIMIT: '0' })).toThrow(/SPACES_PARTICIPANT_LIMIT/);
    expect(() => loadConfig({ SPACES_ICE_PORTS: '40100-40000' })).toThrow(/SPACES_ICE_PORTS: must be a range/);
    expect(() => loadConfig({ SPACES_ICE_PORTS: '40000' })).toThrow(/SPACES_ICE_PORTS: must be min-max/);
    expect(() => loadConfig({ SPACES_PORT: '8084' })).toThrow(/SPACES_PORT: must differ from COLLECTOR_PORT/);
    expect(() => loadConfig({ SPACES_PORT: '8080' })).toThrow(/SPACES_PORT: must differ from API_PORT/);
    expect(() => loadConfig({ SPACES_BROADCAST_LIMIT: '0' })).toThrow(/SPACES_BROADCAST_LIMIT/);
  });

  it('takes a Kafka namespace of topic-safe characters', () => {
    expect(loadConfig({ KAFKA_BROKERS: 'k:9092', KAFKA_NAMESPACE: 'tenant-1' }).kafka).toEqual({
      brokers: ['k:9092'],
      clientId: 'video-platform',
      namespace: 'tenant-1',
    });
    expect(loadConfig({ KAFKA_BROKERS: 'k:9092' }).kafka).toEqual({ brokers: ['k:9092'], clientId: 'video-platform' });
    expect(() => loadConfig({ KAFKA_BROKERS: 'k:9092', KAFKA_NAMESPACE: 'a/b' })).toThrow(/KAFKA_NAMESPACE/);
  });

  it('takes OUTBOUND_ALLOW and refuses a value it does not know', () => {
    expect(loadConfig({ OUTBOUND_ALLOW: 'public' }).outboundAllow).toBe('public');
    expect(loadConfig({ OUTBOUND_ALLOW: 'private' }).outboundAllow).toBe('private');
    expect(() => loadConfig({ OUTBOUND_ALLOW: 'everything' })).toThrow(/OUTBOUND_ALLOW/);
  });

  it('runs capture jobs as local processes by default, as Pods with CAPTURE_LAUNCHER=kubernetes and an image', () => {
    expect(loadConfig({}).capture.kubernetes).toBeUndefined();
    expect(loadConfig({ CAPTURE_LAUNCHER: 'kubernetes', CAPTURE_IMAGE: 'registry.example/video:1.2' }).capture.kubernetes).toEqual({
      namespace: undefined,
      image: 'registry.example/video:1.2',
      instance: 'video-platform',
      imagePullSecrets: [],
    });
    const env = {
      CAPTURE_LAUNCHER: 'kubernetes',
      CAPTURE_IMAGE: 'video:2',
      CAPTURE_NAMESPACE: 'video',
      CAPTURE_INSTANCE: 'prod_1',
      CAPTURE_IMAGE_PULL_SECRETS: 'regcred, other.cred',
    };
    expect(loadConfig(env).capture.kubernetes).toEqual({
      namespace: 'video',
      image: 'video:2',
      instance: 'prod_1',
      imagePullSecrets: ['regcred', 'other.cred'],
    });
    expect(() => loadConfig({ CAPTURE_LAUNCHER: 'kubernetes' })).toThrow(/CAPTURE_IMAGE: required with CAPTURE_LAUNCHER=kubernetes/);
    expect(() => loadConfig({ CAPTURE_LAUNCHER: 'docker' })).toThrow(/CAPTURE_LAUNCHER/);
    expect(() => loadConfig({ ...env, CAPTURE_NAMESPACE: 'Video' })).toThrow(/CAPTURE_NAMESPACE: must be a Kubernetes namespace name/);
    expect(() => loadConfig({ ...env, CAPTURE_INSTANCE: '-x' })).toThrow(/CAPTURE_INSTANCE: must be a Kubernetes label value/);
    expect(() => loadConfig({ ...env, CAPTURE_IMAGE_PULL_SECRETS: 'ok,Not_OK' })).toThrow(/CAPTURE_IMAGE_PULL_SECRETS/);
  });

  it('takes the input download idle timeout and the ingest slots of a transcoder, each a positive integer', () => {
    const defaults = loadConfig({});
    expect(defaults.media.inputDownloadIdleSeconds).toBe(60);
    expect(defaults.transcoder.ingestConcurrency).toBe(4);
    const c = loadConfig({ INPUT_DOWNLOAD_IDLE_SECONDS: '15', TRANSCODER_INGEST_CONCURRENCY: '2' });
    expect(c.media.inputDownloadIdleSeconds).toBe(15);
    expect(c.transcoder.ingestConcurrency).toBe(2);
    expect(() => loadConfig({ INPUT_DOWNLOAD_IDLE_SECONDS: '0' })).toThrow(/INPUT_DOWNLOAD_IDLE_SECONDS/);
    expect(() => loadConfig({ TRANSCODER_INGEST_CONCURRENCY: 'many' })).toThrow(/TRANSCODER_INGEST_CONCURRENCY/);
  });

  it('chooses production adapters from their variables', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/video',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      LIVE_GRPC_URL: 'live:50052',
    });
    expect(c.databaseUrl).toBe('postgres://u:p@db:5432/video');
    expect(c.kafka?.brokers).toEqual(['k1:9092', 'k2:9092']);
    expect(c.s3?.endpoint).toBe('http://minio:9000');
    expect(c.grpcUrls.live).toBe('live:50052');
  });

  it('takes the public base of upload URLs without a trailing slash, and refuses one that is not http(s)', () => {
    expect(loadConfig({ UPLOAD_PORT: '9000', UPLOAD_BASE_URL: 'https://upload.video.example/' }).uploads).toEqual({
      port: 9000,
      baseUrl: 'https://upload.video.example',
      sweepMs: 5000,
    });
    expect(() => loadConfig({ UPLOAD_BASE_URL: 'ftp://x' })).toThrow(/UPLOAD_BASE_URL: must be a URL/);
  });

  it('takes the public base of playback URLs and the master MP4 window (24 h by default, any positive seconds)', () => {
    const defaults = loadConfig({ STREAM_PORT: '9001' });
    expect(defaults.streamBaseUrl).toBe('http://localhost:9001');
    expect(defaults.masterAccessSeconds).toBe(86_400);
    const c = loadConfig({ STREAM_BASE_URL: 'https://stream.video.example/', MASTER_ACCESS_SECONDS: '5' });
    expect(c.streamBaseUrl).toBe('https://stream.video.example');
    expect(c.masterAccessSeconds).toBe(5);
    expect(() => loadConfig({ STREAM_BASE_URL: 'rtmp://x' })).toThrow(/STREAM_BASE_URL: must be a URL/);
    expect(() => loadConfig({ MASTER_ACCESS_SECONDS: '0' })).toThrow(/MASTER_ACCESS_SECONDS/);
    expect(() => loadConfig({ MASTER_ACCESS_SECONDS: 'a day' })).toThrow(/MASTER_ACCESS_SECONDS/);
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({ API_PORT: 'eighty', DATABASE_URL: 'mysql://x', ACCESS_TOKEN_ID: 'only-id', KAFKA_BROKERS: 'nohostport' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).problems.join('\n');
      expect(text).toMatch(/API_PORT/);
      expect(text).toMatch(/DATABASE_URL/);
      expect(text).toMatch(/ACCESS_TOKEN_SECRET: must be set together with ACCESS_TOKEN_ID/);
      expect(text).toMatch(/KAFKA_BROKERS/);
    }
  });

  it('takes the view builder settings in seconds', () => {
    expect(loadConfig({}).views).toEqual({ silenceMs: 3_600_000, sweepIntervalMs: 60_000, cacheSize: 20_000 });
    expect(loadConfig({ VIEW_SILENCE_SECONDS: '5', VIEW_SWEEP_SECONDS: '1', VIEW_STATE_CACHE_SIZE: '10' }).views).toEqual({
      silenceMs: 5000,
      sweepIntervalMs: 1000,
      cacheSize: 10,
    });
    expect(() => loadConfig({ VIEW_SILENCE_SECONDS: '0' })).toThrow(/VIEW_SILENCE_SECONDS/);
  });

  it('takes the collector base URL (default from COLLECTOR_PORT) and the view export settings', () => {
    expect(loadConfig({}).collectorBaseUrl).toBe('http://localhost:8084');
    expect(loadConfig({ COLLECTOR_PORT: '9084' }).collectorBaseUrl).toBe('http://localhost:9084');
    expect(loadConfig({ COLLECTOR_BASE_URL: 'https://beacons.example.com/' }).collectorBaseUrl).toBe('https://beacons.example.com');
    expect(loadConfig({}).viewExports).toEqual({ urlSecret: undefined, urlSeconds: 3600, retentionDays: 7, checkMs: 300_000, includeToday: false });
    const env = { EXPORT_URL_SECRET: 's', EXPORT_URL_SECONDS: '60', EXPORT_RETENTION_DAYS: '3', EXPORT_CHECK_MS: '1000', EXPORT_INCLUDE_TODAY: 'true' };
    expect(loadConfig(env).viewExports).toEqual({ urlSecret: 's', urlSeconds: 60, retentionDays: 3, checkMs: 1000, includeToday: true });
    expect(() => loadConfig({ EXPORT_RETENTION_DAYS: '0' })).toThrow(/EXPORT_RETENTION_DAYS/);
  });

  it('creates the bootstrap token only when both halves are set', () => {
    expect(loadConfig({ ACCESS_TOKEN_ID: 'id', ACCESS_TOKEN_SECRET: 's' }).bootstrapToken).toEqual({ id: 'id', secret: 's' });
  });
});
