import { INestMicroservice, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PlatformConfig, ServiceName } from '@platform/config';
import { GrpcExceptionFilter } from './grpc-exception.filter';
import { grpcServerOptions } from './grpc-options';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

export function logLevels(config: PlatformConfig): LogLevel[] {
  return LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1);
}

/**
 * Boots one service as its own NestJS app with its own gRPC server. The module must
 * import HealthModule; the same call runs the service alone in a pod or beside the
 * others in the embedded process.
 */
export async function startGrpcService(name: ServiceName, module: Parameters<typeof NestFactory.createMicroservice>[0], config: PlatformConfig): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(module, { ...grpcServerOptions(name, config), logger: logLevels(config) });
  app.useGlobalFilters(new GrpcExceptionFilter());
  await app.listen();
  return app;
}
