import 'reflect-metadata';
import { PlatformConfig } from '@platform/config';
import { runStandalone, startGrpcService } from '@platform/grpc';
import { AppModule } from './app.module';

export function bootstrap(config: PlatformConfig) {
  return startGrpcService('playback-auth', AppModule.forRoot(config), config, { port: config.streamPort, alsoPorts: [config.images.port] });
}

if (require.main === module) runStandalone('playback-auth', bootstrap);
