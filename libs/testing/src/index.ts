export * from './fake-unit-of-work';
export * from './free-port';
