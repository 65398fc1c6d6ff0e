import { DynamicModule, Global, Module } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { PlatformConfig, SERVICE_NAMES, ServiceName } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';

/** The injection token of the gRPC client (ClientGrpc) of one platform service. */
export function grpcClientToken(name: ServiceName): string {
  return `grpc-client:${name}`;
}

/**
 * One gRPC client per platform service, each loading that service's proto and
 * grpc.health.v1. Channels connect lazily, on the first call.
 */
@Global()
@Module({})
export class GrpcClientsModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    const clients = ClientsModule.register(SERVICE_NAMES.map((name) => ({ name: grpcClientToken(name), ...grpcClientOptions(name, config) })));
    return { module: GrpcClientsModule, imports: [clients], exports: [clients] };
  }
}
