import { DynamicModule, Global, Module } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';

/** Makes the validated config injectable everywhere as `@Inject(PLATFORM_CONFIG)`. */
@Global()
@Module({})
export class PlatformConfigModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return { module: PlatformConfigModule, providers: [{ provide: PLATFORM_CONFIG, useValue: config }], exports: [PLATFORM_CONFIG] };
  }
}
