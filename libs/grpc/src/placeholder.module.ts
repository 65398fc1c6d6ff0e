import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { HealthModule } from './health.module';
import { PlatformConfigModule } from './platform-config.module';

/**
 * The whole app of a service not implemented yet: its health check only. Its gRPC
 * service is still registered from the proto; with no handlers, grpc-js answers each
 * method UNIMPLEMENTED, which the gateway turns into 501.
 */
@Module({})
export class PlaceholderModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return { module: PlaceholderModule, imports: [PlatformConfigModule.forRoot(config), HealthModule] };
  }
}
