export * from './grpc-exception.filter';
export * from './grpc-options';
export * from './health.controller';
export * from './health.module';
export * from './readiness';
export * from './start-grpc-service';
export * from './platform-config.module';
export * from './run-standalone';
