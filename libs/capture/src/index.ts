export * from './capture-job';
export * from './capture-launcher';
export * from './create-capture-launcher';
export * from './find-chromium';
export * from './local-process-launcher';
