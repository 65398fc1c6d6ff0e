import { PlatformConfig } from '@platform/config';
import { CaptureJobKind } from './capture-job';
import { CaptureLauncher } from './capture-launcher';
import { LocalProcessLauncher } from './local-process-launcher';

/** The Kubernetes side (the Pod launcher, the Pod body, the client's configuration), loaded with its client only when asked for. */
export function loadKubernetesCapture(): Promise<typeof import('./kubernetes')> {
  return import('./kubernetes');
}

/**
 * The launcher the configuration chooses (CAPTURE_LAUNCHER): child processes, or a Pod per job. The Kubernetes
 * client is loaded only for the latter.
 */
export async function createCaptureLauncher(capture: PlatformConfig['capture'], jobKind: CaptureJobKind): Promise<CaptureLauncher> {
  const pods = capture.kubernetes;
  if (!pods) return new LocalProcessLauncher();
  const { KubernetesPodLauncher, inClusterNamespace, loadKubeConfig } = await loadKubernetesCapture();
  return new KubernetesPodLauncher(loadKubeConfig(), {
    namespace: pods.namespace ?? inClusterNamespace() ?? 'default',
    image: pods.image,
    instance: pods.instance,
    imagePullSecrets: pods.imagePullSecrets,
    jobKind,
  });
}
