import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PlatformConfig, ServiceName } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';

type Unary = (request: object) => Promise<Record<string, unknown>>;

/** Plain @grpc/grpc-js clients for a service's gRPC services, loaded as other processes load them. */
export function grpcTestClient(name: ServiceName, config: PlatformConfig) {
  const { options } = grpcClientOptions(name, config);
  const definition = protoLoader.loadSync(options.protoPath as string[], options.loader);
  const loaded = grpc.loadPackageDefinition(definition);
  const clients: grpc.Client[] = [];

  function service(qualifiedName: string): Record<string, Unary> {
    const Ctor = qualifiedName.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], loaded) as grpc.ServiceClientConstructor;
    const client = new Ctor(options.url as string, grpc.credentials.createInsecure());
    clients.push(client);
    return new Proxy(
      {},
      {
        get: (_, method: string) => (request: object) =>
          new Promise((resolve, reject) => {
            (client as unknown as Record<string, (r: object, cb: (e: grpc.ServiceError | null, v: Record<string, unknown>) => void) => void>)[method](
              request,
              (err, value) => (err ? reject(err) : resolve(value)),
            );
          }),
      },
    );
  }

  return { service, close: () => clients.forEach((c) => c.close()) };
}

/** The gRPC error a call failed with (fails the test when the call succeeds). */
export async function grpcError(call: Promise<unknown>): Promise<grpc.ServiceError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: grpc.ServiceError) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected the call to fail, it answered ${JSON.stringify(outcome.value)}`);
  return outcome.error;
}
