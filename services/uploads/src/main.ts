import 'reflect-metadata';
import { PlatformConfig } from '@platform/config';
import { PlaceholderModule, runStandalone, startGrpcService } from '@platform/grpc';

export function bootstrap(config: PlatformConfig) {
  return startGrpcService('uploads', PlaceholderModule.forRoot(config), config);
}

if (require.main === module) runStandalone('uploads', bootstrap);
