import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { loadConfig } from '@platform/config';
import { GrpcStatus } from '@platform/errors';
import { grpcClientOptions } from '@platform/grpc';
import { health } from '@platform/proto';
import { freePort } from '@platform/testing';
import { bootstrap } from './main';

type Callback = (err: grpc.ServiceError | null, value?: unknown) => void;
type UnaryClient = grpc.Client & Record<string, (request: object, callback: Callback) => void>;

function clientOf(loaded: grpc.GrpcObject, qualifiedName: string, address: string): UnaryClient {
  const Ctor = qualifiedName.split('.').reduce<unknown>((node, part) => (node as grpc.GrpcObject)[part], loaded) as grpc.ServiceClientConstructor;
  return new Ctor(address, grpc.credentials.createInsecure()) as UnaryClient;
}

function call(client: UnaryClient, method: string, request: object): Promise<{ error: grpc.ServiceError | null; value?: unknown }> {
  return new Promise((resolve) => client[method](request, (error, value) => resolve({ error, value })));
}

/**
 * A placeholder service has no gRPC handlers. NestJS registers every service of the proto
 * package anyway (with an empty implementation), and grpc-js answers each missing method
 * UNIMPLEMENTED: no stub controller is needed.
 */
describe('assets placeholder app', () => {
  let app: Awaited<ReturnType<typeof bootstrap>>;
  let assets: UnaryClient;
  let healthClient: UnaryClient;

  beforeAll(async () => {
    const config = loadConfig({ ASSETS_GRPC_URL: `127.0.0.1:${await freePort()}`, LOG_LEVEL: 'error' });
    app = await bootstrap(config);

    const { options } = grpcClientOptions('assets', config);
    const loaded = grpc.loadPackageDefinition(protoLoader.loadSync(options.protoPath as string[], options.loader));
    assets = clientOf(loaded, 'platform.assets.v1.AssetsService', options.url as string);
    healthClient = clientOf(loaded, 'grpc.health.v1.Health', options.url as string);
  });

  afterAll(async () => {
    assets?.close();
    healthClient?.close();
    await app?.close();
  });

  it('answers AssetsService/GetAsset with status 12 UNIMPLEMENTED', async () => {
    const { error, value } = await call(assets, 'GetAsset', { id: 'some-asset' });
    expect(value).toBeUndefined();
    expect(error?.code).toBe(GrpcStatus.UNIMPLEMENTED);
    // grpc-js names the bare method for a registered service without that handler, and the
    // whole path (/platform.assets.v1.AssetsService/GetAsset) for a service it does not know:
    // so this also proves AssetsService is bound.
    expect(error?.details).toBe('The server does not implement the method GetAsset');
  });

  it('answers every other AssetsService method UNIMPLEMENTED too', async () => {
    const list = await call(assets, 'ListAssets', { limit: 10, page: 1 });
    const del = await call(assets, 'DeleteAsset', { id: 'x' });
    expect([list.error?.code, del.error?.code]).toEqual([GrpcStatus.UNIMPLEMENTED, GrpcStatus.UNIMPLEMENTED]);
  });

  it('answers the health check SERVING without a database', async () => {
    const { error, value } = await call(healthClient, 'Check', { service: '' });
    expect(error).toBeNull();
    expect(value).toEqual({ status: health.HealthCheckResponse_ServingStatus.SERVING });
  });
});
