export * from './address-class';
export * from './outbound-guard';
export * from './guarded-request';
