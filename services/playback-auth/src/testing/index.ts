export * from './fake-assets-client';
export * from './in-memory-playback-restrictions';
export * from './in-memory-signing-keys';
export * from './playback-http-app';
