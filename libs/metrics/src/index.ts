export * from './registry';
export * from './platform-metrics';
export * from './metrics-server';
export * from './thread-metrics';
export * from './http-metrics';
