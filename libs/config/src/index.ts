export * from './services';
export * from './platform-config';

/** Nest injection token under which every service receives the validated PlatformConfig. */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
export * from './env.schema';
export * from './data-dir-secret';
