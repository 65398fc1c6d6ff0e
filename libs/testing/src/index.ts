export * from './fake-unit-of-work';
export * from './free-port';
export * from './rejection';
export * from './grpc-test-client';
export * from './test-database';
export * from './pglite-database';
export * from './fake-processed-events';
export * from './test-events';
