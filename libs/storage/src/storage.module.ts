import { DynamicModule, Module } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { createObjectStore } from './object-store.factory';

/** Injection token of the service's ObjectStore: `@Inject(OBJECT_STORE) store: ObjectStore`. */
export const OBJECT_STORE = Symbol('OBJECT_STORE');

/** Gives every module of a service the ObjectStore chosen by the config (needs PlatformConfigModule). */
@Module({})
export class StorageModule {
  static forRoot(): DynamicModule {
    return {
      module: StorageModule,
      global: true,
      providers: [{ provide: OBJECT_STORE, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => createObjectStore(config) }],
      exports: [OBJECT_STORE],
    };
  }
}
