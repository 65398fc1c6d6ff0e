import { KubeConfig } from '@kubernetes/client-node';
import fs from 'node:fs';

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Inside a Pod: its ServiceAccount's token and the cluster's address; elsewhere: KUBECONFIG (or ~/.kube/config). */
export function loadKubeConfig(env: NodeJS.ProcessEnv = process.env): KubeConfig {
  const kc = new KubeConfig();
  if (env.KUBERNETES_SERVICE_HOST && fs.existsSync(`${SERVICE_ACCOUNT_DIR}/token`)) kc.loadFromCluster();
  else kc.loadFromDefault();
  return kc;
}

/** The namespace of the Pod this process runs in, when it runs in one. */
export function inClusterNamespace(): string | undefined {
  try {
    return fs.readFileSync(`${SERVICE_ACCOUNT_DIR}/namespace`, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
