import { Provider } from '@nestjs/common';
import { ClientGrpc } from '@nestjs/microservices';
import { ServiceName } from '@platform/config';
import { grpcClientToken } from './grpc-clients.module';

/** A provider of one typed gRPC service client (ts-proto's `…ServiceClient`) of a platform service. */
export function serviceClientProvider(token: symbol, service: ServiceName, grpcServiceName: string): Provider {
  return {
    provide: token,
    inject: [grpcClientToken(service)],
    useFactory: (client: ClientGrpc): object => client.getService<object>(grpcServiceName),
  };
}
