export * from './fake-unit-of-work';
export * from './free-port';
export * from './rejection';
