import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { PlatformConfig } from '@platform/config';
import type { NextFunction, Request, Response } from 'express';
import {
  Closable,
  drainHttpOnClose,
  listenHttp,
  PlatformLogger,
  PrototypedExpressAdapter,
  REQUEST_ID_HEADER,
  requestIdOf,
  runStandalone,
  useLeanAsyncResourceBind,
  withRequestId,
} from '@platform/grpc';
import { httpMetrics, startMetricsServer } from '@platform/metrics';
import { AppModule } from './app.module';
import { setupGateway } from './setup-gateway';

/** The HTTP entry of the platform on API_PORT; it talks gRPC to every other service. */
export async function bootstrap(config: PlatformConfig): Promise<Closable> {
  useLeanAsyncResourceBind(); // in the thread it runs in (its own in the embedded process): every request is a gRPC call
  const app = await NestFactory.create(AppModule.forRoot(config), new PrototypedExpressAdapter(), {
    logger: new PlatformLogger('gateway', config),
    bodyParser: false,
  });
  // every request has an id (the caller's X-Request-Id, or a new one), answered back and carried to each service it reaches
  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = requestIdOf(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    withRequestId(requestId, next);
  });
  // in the embedded process's gateway thread, the main thread's server answers for it
  if (config.metricsPort > 0) await startMetricsServer(config.metricsPort, config.host);
  app.use(httpMetrics('gateway'));
  setupGateway(app);
  await listenHttp(app, config.apiPort, config.host);
  return drainHttpOnClose(app); // on SIGTERM: no new requests, those in flight finish, then the gRPC clients close
}

if (require.main === module) runStandalone('gateway', bootstrap);
