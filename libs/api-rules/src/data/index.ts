export * from './data-vocabulary';
export * from './dimension-filters';
export * from './metric-filters';
export * from './timeframe';
export * from './monitoring';
