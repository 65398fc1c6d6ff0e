import type { V1Pod } from '@kubernetes/client-node';
import { deletedOutcome, podOutcome } from './pod-outcome';

const pod = (status: V1Pod['status']): V1Pod => ({ metadata: { name: 'p' }, status });
const terminated = (exitCode: number, reason: string, message?: string) =>
  [{ name: 'capture-worker', state: { terminated: { exitCode, reason, message } } }] as never;

describe('how a capture Pod ended', () => {
  it('has not while it is pending or running', () => {
    expect(podOutcome(pod({ phase: 'Pending' }))).toBeUndefined();
    expect(podOutcome(pod({ phase: 'Running', containerStatuses: [{ name: 'capture-worker', state: { running: {} } }] as never }))).toBeUndefined();
    const pulling = [{ name: 'capture-worker', state: { waiting: { reason: 'ContainerCreating' } } }] as never;
    expect(podOutcome(pod({ phase: 'Pending', containerStatuses: pulling }))).toBeUndefined();
  });

  it('takes the worker’s own last word from the termination message, failed by the phase or the exit code', () => {
    expect(podOutcome(pod({ phase: 'Succeeded', containerStatuses: terminated(0, 'Completed', 'the timeout of 60 s passed') }))).toEqual({
      reason: 'the timeout of 60 s passed',
      failed: false,
    });
    expect(podOutcome(pod({ phase: 'Failed', containerStatuses: terminated(1, 'Error', 'could not load https://x/: the page answered HTTP 404\n') }))).toEqual({
      reason: 'could not load https://x/: the page answered HTTP 404',
      failed: true,
    });
    expect(podOutcome(pod({ phase: 'Succeeded', containerStatuses: terminated(2, 'Error') }))).toEqual({ reason: 'the worker exited with 2', failed: true });
  });

  it('puts what the kubelet says of the Pod or the container first', () => {
    const deadline = pod({
      phase: 'Failed',
      reason: 'DeadlineExceeded',
      message: 'Pod was active on the node longer than the specified deadline',
      containerStatuses: terminated(0, 'Completed', 'stopped (SIGTERM)'),
    });
    expect(podOutcome(deadline)).toEqual({
      reason: 'DeadlineExceeded: Pod was active on the node longer than the specified deadline; stopped (SIGTERM)',
      failed: true,
    });
    expect(podOutcome(pod({ phase: 'Failed', containerStatuses: terminated(137, 'OOMKilled') }))).toEqual({
      reason: 'OOMKilled (exit 137); the worker exited with 137',
      failed: true,
    });
    expect(podOutcome(pod({ phase: 'Failed' }))).toEqual({ reason: 'the capture Pod failed', failed: true });
  });

  it('fails a Pod whose container cannot start (its image cannot be pulled, its configuration is wrong)', () => {
    const waiting = [{ name: 'capture-worker', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x:1"' } } }] as never;
    expect(podOutcome(pod({ phase: 'Pending', containerStatuses: waiting }))).toEqual({
      reason: 'the capture Pod cannot start: ImagePullBackOff: Back-off pulling image "x:1"',
      failed: true,
    });
  });

  it('reads a deletion before the end as a shutdown when ours, a failure otherwise', () => {
    expect(deletedOutcome(true)).toEqual({ reason: 'shut down', failed: false });
    expect(deletedOutcome(false)).toEqual({ reason: 'the capture Pod was deleted', failed: true });
  });
});
