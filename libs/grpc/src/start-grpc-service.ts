import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { PlatformConfig, ServiceName } from '@platform/config';
import { httpMetrics, startMetricsServer } from '@platform/metrics';
import { GrpcExceptionFilter } from './grpc-exception.filter';
import { GrpcMetricsInterceptor } from './grpc-metrics.interceptor';
import { PlatformLogger } from './platform-logger';
import { RequestContextInterceptor } from './request-context.interceptor';
import { grpcServerOptions } from './grpc-options';
import { PrototypedExpressAdapter } from './express-adapter';
import { drainHttpOnClose } from './http-drain';
import { applyHttpServerTimeouts, HttpServerTimeouts } from './http-server-timeouts';
import { listenHttp, listenHttpAlso } from './listen-http';

type RootModule = Parameters<typeof NestFactory.createMicroservice>[0];

export interface Closable {
  close(): Promise<void>;
}

/**
 * Boots one service as its own NestJS app with its own gRPC server. The module must
 * import HealthModule; the same call runs the service alone in a pod or beside the
 * others in the embedded process. With `http`, the same app also serves HTTP on that
 * port (the playback host, RTMP callbacks…) while gRPC keeps its own error filter; `alsoPorts`
 * serve the same routes on more ports (the image host), each by a server of its own. With METRICS_PORT,
 * the process serves Prometheus' `/metrics` there (once, whatever number of services it runs); gRPC
 * methods and HTTP routes are timed.
 */
export async function startGrpcService(
  name: ServiceName,
  module: RootModule,
  config: PlatformConfig,
  http?: { port: number; alsoPorts?: number[]; host?: string; bodyParser?: boolean } & HttpServerTimeouts,
): Promise<Closable> {
  if (config.metricsPort > 0) await startMetricsServer(config.metricsPort, config.host);
  if (!http) {
    const app = await NestFactory.createMicroservice(module, { ...grpcServerOptions(name, config), logger: new PlatformLogger(name, config) });
    app.useGlobalFilters(new GrpcExceptionFilter());
    app.useGlobalInterceptors(new RequestContextInterceptor(name), new GrpcMetricsInterceptor(name));
    await app.listen();
    return app;
  }
  const app = await NestFactory.create(module, new PrototypedExpressAdapter(), {
    logger: new PlatformLogger(name, config),
    bodyParser: http.bodyParser ?? true,
  });
  app.use(httpMetrics(name));
  // connectMicroservice initializes the gRPC side at once, so its filter must come from the app
  app.useGlobalFilters(new GrpcExceptionFilter());
  app.useGlobalInterceptors(new RequestContextInterceptor(name), new GrpcMetricsInterceptor(name));
  app.connectMicroservice(grpcServerOptions(name, config), { inheritAppConfig: true });
  await app.startAllMicroservices();
  applyHttpServerTimeouts(app.getHttpServer() as Server, http);
  await listenHttp(app, http.port, http.host ?? config.host);
  const also: Server[] = [];
  for (const port of http.alsoPorts ?? []) {
    const server = await listenHttpAlso(app, port, http.host ?? config.host);
    applyHttpServerTimeouts(server, http);
    also.push(server);
  }
  return drainHttpOnClose(app, undefined, also);
}
