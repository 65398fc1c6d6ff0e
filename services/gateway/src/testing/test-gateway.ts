import { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig, PlatformConfig, SERVICE_NAMES } from '@platform/config';
import { analytics, assets, health, live, playbackAuth, spaces, uploads, webInputs } from '@platform/proto';
import { Observable, of, throwError } from 'rxjs';
import { DataSource } from 'typeorm';
import { AccessTokenRepository } from '../access-tokens/access-token.repository';
import { Permission } from '../access-tokens/permissions';
import { hashSecret } from '../access-tokens/secrets';
import { AppModule } from '../app.module';
import { ASSETS_CLIENT } from '../assets/assets-client';
import { STATIC_RENDITIONS_CLIENT } from '../assets/static-renditions-client';
import { UPLOADS_CLIENT } from '../uploads/uploads-client';
import { LIVE_STREAMS_CLIENT } from '../live-streams/live-streams-client';
import { ANALYTICS_CLIENT } from '../data/video-views.controller';
import { HEALTH_CLIENTS, HealthClients } from '../health/health-clients';
import { PLAYBACK_RESTRICTIONS_CLIENT } from '../playback-restrictions/playback-restrictions.controller';
import { setupGateway } from '../setup-gateway';
import { SIGNING_KEYS_CLIENT } from '../signing-keys/signing-keys.controller';
import { TRANSCRIPTION_VOCABULARIES_CLIENT } from '../transcription-vocabularies/transcription-vocabularies.controller';
import { SPACES_CLIENT } from '../spaces/spaces.controller';
import { WEB_INPUTS_CLIENT } from '../web-inputs/web-inputs.controller';
import { FakeAccessTokenRepository } from './fake-access-token.repository';

type MockedClient<T> = { [K in keyof T]: jest.Mock };

function mockClient<T>(methods: (keyof T)[]): MockedClient<T> {
  return Object.fromEntries(methods.map((m) => [m, jest.fn(() => throwError(() => new Error(`unexpected call ${String(m)}`)))])) as MockedClient<T>;
}

/** A gRPC reply, as the client observables give it. */
export const reply = <T>(value: T): Observable<T> => of(value);

/** A gRPC failure, shaped like a @grpc/grpc-js ServiceError. */
export const grpcError = (code: number, messages: string[] | string = []) =>
  throwError(() => Object.assign(new Error(`grpc ${code}`), { code, details: Array.isArray(messages) ? JSON.stringify(messages) : messages }));

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Credentials to send; the default is a full-permission token, `null` sends none. */
  auth?: { id: string; secret: string } | null;
}

/**
 * The gateway app in-process, listening on a free loopback port, with the gRPC clients,
 * the health clients, the DataSource and the token repository replaced by fakes.
 */
export class TestGateway {
  readonly signingKeys = mockClient<playbackAuth.SigningKeysServiceClient>(['createSigningKey', 'getSigningKey', 'listSigningKeys', 'deleteSigningKey']);
  readonly playbackRestrictions = mockClient<playbackAuth.PlaybackRestrictionsServiceClient>([
    'createPlaybackRestriction',
    'getPlaybackRestriction',
    'listPlaybackRestrictions',
    'deletePlaybackRestriction',
    'updateReferrer',
    'updateUserAgent',
  ]);
  readonly vocabularies = mockClient<live.TranscriptionVocabulariesServiceClient>([
    'createTranscriptionVocabulary',
    'getTranscriptionVocabulary',
    'listTranscriptionVocabularies',
    'updateTranscriptionVocabulary',
    'deleteTranscriptionVocabulary',
  ]);
  readonly spaces = mockClient<spaces.SpacesServiceClient>([
    'createSpace',
    'getSpace',
    'listSpaces',
    'deleteSpace',
    'createBroadcast',
    'getBroadcast',
    'deleteBroadcast',
    'startBroadcast',
    'stopBroadcast',
  ]);
  readonly webInputs = mockClient<webInputs.WebInputsServiceClient>([
    'createWebInput',
    'getWebInput',
    'listWebInputs',
    'deleteWebInput',
    'launchWebInput',
    'shutdownWebInput',
    'reloadWebInput',
    'updateWebInputUrl',
  ]);
  readonly assets = mockClient<assets.AssetsServiceClient>([
    'createAsset',
    'getAsset',
    'listAssets',
    'updateAsset',
    'deleteAsset',
    'getInputInfo',
    'createPlaybackId',
    'getPlaybackId',
    'deletePlaybackId',
    'deleteThumbnailTime',
    'lookupPlaybackId',
    'createTrack',
    'deleteTrack',
    'generateSubtitles',
  ]);
  readonly staticRenditions = mockClient<assets.StaticRenditionsServiceClient>([
    'updateMp4Support',
    'updateMasterAccess',
    'createStaticRendition',
    'deleteStaticRendition',
    'lookupStaticRendition',
    'lookupMasterAccess',
  ]);
  readonly uploads = mockClient<uploads.UploadsServiceClient>(['createUpload', 'getUpload', 'listUploads', 'cancelUpload']);
  readonly liveStreams = mockClient<live.LiveStreamsServiceClient>([
    'createLiveStream',
    'getLiveStream',
    'listLiveStreams',
    'updateLiveStream',
    'deleteLiveStream',
    'resetStreamKey',
    'completeLiveStream',
    'disableLiveStream',
    'enableLiveStream',
    'updateEmbeddedSubtitles',
    'updateGeneratedSubtitles',
    'updateNewAssetStaticRenditions',
    'deleteNewAssetStaticRenditions',
    'createPlaybackId',
    'getPlaybackId',
    'deletePlaybackId',
    'lookupPlaybackId',
    'createSimulcastTarget',
    'getSimulcastTarget',
    'deleteSimulcastTarget',
  ]);
  readonly analytics = mockClient<analytics.AnalyticsServiceClient>([
    'listVideoViews',
    'getVideoView',
    'listErrors',
    'listDimensionValues',
    'listViewExports',
    'getMetricOverall',
    'listMetricBreakdown',
    'listMetricTimeseries',
    'listMetricInsights',
    'getMetricComparison',
    'getMonitoringBreakdown',
    'listMonitoringTimeseries',
    'listMonitoringBreakdownTimeseries',
    'listMonitoringHistogram',
  ]);
  readonly health = Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, { check: jest.fn(() => of({ status: health.HealthCheckResponse_ServingStatus.SERVING })) }]),
  ) as unknown as Record<keyof HealthClients, { check: jest.Mock }>;
  readonly database = { isInitialized: true, query: jest.fn(async () => [{ '?column?': 1 }]), destroy: jest.fn(async () => undefined) };
  readonly tokens = new FakeAccessTokenRepository();
  readonly admin: { id: string; secret: string };
  app!: INestApplication;
  baseUrl = '';

  private constructor(readonly config: PlatformConfig) {
    this.admin = { id: config.bootstrapToken!.id, secret: config.bootstrapToken!.secret };
  }

  static async start(env: Record<string, string> = {}): Promise<TestGateway> {
    const config = loadConfig({ ACCESS_TOKEN_ID: 'admin', ACCESS_TOKEN_SECRET: 'admin-secret', LOG_LEVEL: 'error', ...env });
    const gateway = new TestGateway(config);
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
      .overrideProvider(DataSource)
      .useValue(gateway.database)
      .overrideProvider(AccessTokenRepository)
      .useValue(gateway.tokens)
      .overrideProvider(SIGNING_KEYS_CLIENT)
      .useValue(gateway.signingKeys)
      .overrideProvider(PLAYBACK_RESTRICTIONS_CLIENT)
      .useValue(gateway.playbackRestrictions)
      .overrideProvider(TRANSCRIPTION_VOCABULARIES_CLIENT)
      .useValue(gateway.vocabularies)
      .overrideProvider(WEB_INPUTS_CLIENT)
      .useValue(gateway.webInputs)
      .overrideProvider(SPACES_CLIENT)
      .useValue(gateway.spaces)
      .overrideProvider(ASSETS_CLIENT)
      .useValue(gateway.assets)
      .overrideProvider(STATIC_RENDITIONS_CLIENT)
      .useValue(gateway.staticRenditions)
      .overrideProvider(UPLOADS_CLIENT)
      .useValue(gateway.uploads)
      .overrideProvider(LIVE_STREAMS_CLIENT)
      .useValue(gateway.liveStreams)
      .overrideProvider(ANALYTICS_CLIENT)
      .useValue(gateway.analytics)
      .overrideProvider(HEALTH_CLIENTS)
      .useValue(gateway.health)
      .compile();
    gateway.app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
    setupGateway(gateway.app);
    await gateway.app.listen(0, '127.0.0.1');
    const { port } = gateway.app.getHttpServer().address() as AddressInfo;
    gateway.baseUrl = `http://127.0.0.1:${port}`;
    return gateway;
  }

  async stop(): Promise<void> {
    await this.app.close();
  }

  /** A token with exactly these permissions, stored as the CLI would store it. */
  async token(permissions: Permission[]): Promise<{ id: string; secret: string }> {
    const id = `token${this.tokens.rows.size + 1}_${permissions.join('_').replace(/:/g, '-')}`;
    const secret = `secret-of-${id}`;
    await this.tokens.insert({ id, name: id, secret_hash: hashSecret(secret), permissions });
    return { id, secret };
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const auth = options.auth === undefined ? this.admin : options.auth;
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (auth) headers.authorization = `Basic ${Buffer.from(`${auth.id}:${auth.secret}`).toString('base64')}`;
    let body = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text === '' ? undefined : text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }
}
