export * from './capture-pod';
export * from './kube-client';
export * from './kubernetes-pod-launcher';
