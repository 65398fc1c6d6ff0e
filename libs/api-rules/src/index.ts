export * from './allowed-domain';
export * from './language-code';
export * from './text-length';
export * from './url-pattern';
export * from './data';
