export * from './object-store.port';
export * from './resumable-write.port';
export * from './object-keys';
export * from './object-store.factory';
export * from './fs-object-store';
export * from './storage.module';
export * from './content-type';
export * from './asset-keys';
export type { MinioObjectStoreOptions } from './minio-object-store';
