import type { V1Pod } from '@kubernetes/client-node';
import { CAPTURE_CONTAINER } from './capture-pod';

export interface PodOutcome {
  reason: string;
  failed: boolean;
}

/** Waiting reasons a container does not come back from by itself: the job has failed before it started. */
const HOPELESS_WAITING = new Set(['ImagePullBackOff', 'ErrImageNeverPull', 'InvalidImageName', 'CreateContainerConfigError']);
/** The kubelet's plain words for an exit; any other (OOMKilled, ContainerCannotRun…) is worth passing on. */
const PLAIN_EXITS = new Set(['Completed', 'Error']);

/**
 * How a capture Pod ended, or undefined while it has not: Succeeded or Failed (failed: the phase Failed or an exit
 * code other than 0), or stuck waiting for good. The reason is the worker's own last word (its termination
 * message), after what the kubelet says of the Pod (DeadlineExceeded, Evicted) or the container (OOMKilled).
 */
export function podOutcome(pod: V1Pod): PodOutcome | undefined {
  const phase = pod.status?.phase;
  const state = pod.status?.containerStatuses?.find((c) => c.name === CAPTURE_CONTAINER)?.state;
  if (phase !== 'Succeeded' && phase !== 'Failed') {
    const waiting = state?.waiting;
    if (waiting?.reason && HOPELESS_WAITING.has(waiting.reason)) {
      return { reason: `the capture Pod cannot start: ${[waiting.reason, waiting.message].filter(Boolean).join(': ')}`, failed: true };
    }
    return undefined;
  }
  const terminated = state?.terminated;
  const parts = [
    [pod.status?.reason, pod.status?.message].filter(Boolean).join(': '),
    terminated?.reason && !PLAIN_EXITS.has(terminated.reason) ? `${terminated.reason} (exit ${terminated.exitCode})` : '',
    terminated?.message?.trim() || (terminated && terminated.exitCode !== 0 ? `the worker exited with ${terminated.exitCode}` : ''),
  ].filter(Boolean);
  return {
    reason: parts.length > 0 ? parts.join('; ') : `the capture Pod ${phase === 'Failed' ? 'failed' : 'ended'}`,
    failed: phase === 'Failed' || (terminated !== undefined && terminated.exitCode !== 0),
  };
}

/** What a Pod deleted before it ended means: our own stop, or someone else's deletion (a drain, an operator). */
export function deletedOutcome(stopping: boolean): PodOutcome {
  return stopping ? { reason: 'shut down', failed: false } : { reason: 'the capture Pod was deleted', failed: true };
}
