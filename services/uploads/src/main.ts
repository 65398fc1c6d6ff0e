import 'reflect-metadata';
import { PlatformConfig } from '@platform/config';
import { runStandalone, startGrpcService } from '@platform/grpc';
import { AppModule } from './app.module';

export function bootstrap(config: PlatformConfig) {
  // No body parser: upload bodies stream to the store whatever their content type.
  return startGrpcService('uploads', AppModule.forRoot(config), config, { port: config.uploads.port, bodyParser: false, requestTimeoutMs: 0 });
}

if (require.main === module) runStandalone('uploads', bootstrap);
