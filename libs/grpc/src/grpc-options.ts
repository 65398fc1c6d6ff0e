import { isIPv6 } from 'node:net';
import path from 'node:path';
import { GrpcOptions, Transport } from '@nestjs/microservices';
import { PlatformConfig, ServiceName } from '@platform/config';
import { HEALTH_PROTO, PROTO_LOADER_OPTIONS, PROTO_ROOT, SERVICE_PROTOS } from '@platform/proto';
import { requestIdClientInterceptor } from './request-context';

function protoFiles(name: ServiceName): { packages: string[]; files: string[] } {
  const own = SERVICE_PROTOS[name];
  const more: readonly string[] = 'more' in own ? own.more : [];
  return {
    packages: [own.package, HEALTH_PROTO.package],
    files: [own.file, ...more, HEALTH_PROTO.file].map((f) => path.join(PROTO_ROOT, f)),
  };
}

/**
 * Channel options of every gRPC server and client. Channelz (grpc-js's introspection service,
 * which nothing here serves) keeps counters and traces for every call; off, as its cost showed
 * in profiles of the API under load.
 */
export const GRPC_CHANNEL_OPTIONS = { 'grpc.enable_channelz': 0 } as const;

/** Where a service's gRPC server listens: its configured port on GRPC_BIND_HOST (an IPv6 address in brackets). */
export function grpcServerOptions(name: ServiceName, config: PlatformConfig): GrpcOptions {
  const { packages, files } = protoFiles(name);
  const port = config.grpcUrls[name].split(':').pop();
  return {
    transport: Transport.GRPC,
    options: {
      url: `${isIPv6(config.grpcBindHost) ? `[${config.grpcBindHost}]` : config.grpcBindHost}:${port}`,
      package: packages,
      protoPath: files,
      loader: PROTO_LOADER_OPTIONS,
      channelOptions: { ...GRPC_CHANNEL_OPTIONS },
    },
  };
}

/** How another process reaches that service. */
export function grpcClientOptions(name: ServiceName, config: PlatformConfig): GrpcOptions {
  const { packages, files } = protoFiles(name);
  return {
    transport: Transport.GRPC,
    options: {
      url: config.grpcUrls[name],
      package: packages,
      protoPath: files,
      loader: PROTO_LOADER_OPTIONS,
      // grpc-js takes client interceptors with the channel options: calls carry the request's id
      channelOptions: { ...GRPC_CHANNEL_OPTIONS, interceptors: [requestIdClientInterceptor] },
    },
  };
}
