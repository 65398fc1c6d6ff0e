import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { PlatformConfig } from '@platform/config';
import { Closable, drainHttpOnClose, listenHttp, logLevels, PrototypedExpressAdapter, runStandalone, useLeanAsyncResourceBind } from '@platform/grpc';
import { AppModule } from './app.module';
import { setupGateway } from './setup-gateway';

/** The HTTP entry of the platform on API_PORT; it talks gRPC to every other service. */
export async function bootstrap(config: PlatformConfig): Promise<Closable> {
  useLeanAsyncResourceBind(); // in the thread it runs in (its own in the embedded process): every request is a gRPC call
  const app = await NestFactory.create(AppModule.forRoot(config), new PrototypedExpressAdapter(), { logger: logLevels(config), bodyParser: false });
  setupGateway(app);
  await listenHttp(app, config.apiPort, config.host);
  return drainHttpOnClose(app); // on SIGTERM: no new requests, those in flight finish, then the gRPC clients close
}

if (require.main === module) runStandalone('gateway', bootstrap);
