import 'reflect-metadata';
import { PlatformConfig } from '@platform/config';
import { runStandalone, startGrpcService } from '@platform/grpc';
import { AppModule } from './app.module';

export function bootstrap(config: PlatformConfig) {
  return startGrpcService('spaces', AppModule.forRoot(config), config);
}

if (require.main === module) runStandalone('spaces', bootstrap);
