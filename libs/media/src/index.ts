export * from './binaries';
export * from './media-errors';
export * from './media-runner';
export * from './progress';
export * from './resolution-tier';
export * from './mpegts';
export * from './stored-variants';
export * from './ts-access-units';
