import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { HealthModule, PlatformConfigModule } from '@platform/grpc';

/**
 * Not implemented yet: only the health check. The gRPC server still registers
 * `TranscoderService` (proto/transcoder/v1/transcoder.proto): with no handlers, grpc-js
 * answers each of its methods UNIMPLEMENTED. No database until there is something to store.
 */
@Module({})
export class AppModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return { module: AppModule, imports: [PlatformConfigModule.forRoot(config), HealthModule] };
  }
}
