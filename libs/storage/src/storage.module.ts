import { DynamicModule, Module } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { createObjectStore } from './object-store.factory';
import { RESUMABLE_WRITER } from './resumable-write.port';

/** Injection token of the service's ObjectStore: `@Inject(OBJECT_STORE) store: ObjectStore`. */
export const OBJECT_STORE = Symbol('OBJECT_STORE');

/** Gives every module of a service the ObjectStore chosen by the config (needs PlatformConfigModule). */
@Module({})
export class StorageModule {
  static forRoot(): DynamicModule {
    return {
      module: StorageModule,
      global: true,
      providers: [
        { provide: OBJECT_STORE, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => createObjectStore(config) },
        // The same adapter: both adapters write resumably (direct uploads).
        { provide: RESUMABLE_WRITER, useExisting: OBJECT_STORE },
      ],
      exports: [OBJECT_STORE, RESUMABLE_WRITER],
    };
  }
}
