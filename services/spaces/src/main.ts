import 'reflect-metadata';
import { PlatformConfig } from '@platform/config';
import { PlaceholderModule, runStandalone, startGrpcService } from '@platform/grpc';

export function bootstrap(config: PlatformConfig) {
  return startGrpcService('spaces', PlaceholderModule.forRoot(config), config);
}

if (require.main === module) runStandalone('spaces', bootstrap);
