export * from './domain-error';
export * from './grpc-status';
