import { CaptureJobSpec } from '../capture-job';
import { capturePod, capturePodName, capturePodResources, capturePodSelector } from './capture-pod';

describe('the capture Pod of a job', () => {
  const spec: CaptureJobSpec = {
    jobId: 'Ab3dEf',
    url: 'https://example.com/page',
    width: 1280,
    height: 720,
    fps: 30,
    rtmpUrl: 'rtmp://vp-live:1935/app/stream-key',
    timeoutSeconds: 3600,
    ffmpegPath: '/usr/bin/ffmpeg',
    chromiumPath: '/usr/bin/chromium',
    outboundAllow: 'public',
  };
  const options = {
    name: 'web-input-ab3def-1a2b3',
    namespace: 'video',
    image: 'registry.example/video-platform:1.4.0',
    instance: 'vp',
    jobKind: 'web_input' as const,
  };

  it('is the worker in Pod mode, never restarted, ended past its deadline, with no API token and nothing to escalate to', () => {
    expect(capturePod(spec, options)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-input-ab3def-1a2b3',
        namespace: 'video',
        labels: {
          'app.kubernetes.io/component': 'capture-worker',
          'app.kubernetes.io/instance': 'vp',
          'video-platform/job-kind': 'web_input',
          'video-platform/job-id': 'Ab3dEf',
        },
        annotations: { 'video-platform/reload-generation': '0' },
      },
      spec: {
        restartPolicy: 'Never',
        activeDeadlineSeconds: 3720,
        terminationGracePeriodSeconds: 20,
        automountServiceAccountToken: false,
        enableServiceLinks: false,
        securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          {
            name: 'capture-worker',
            image: 'registry.example/video-platform:1.4.0',
            command: ['/usr/bin/tini', '--', 'node', 'libs/capture/dist/worker/capture-worker.js'],
            workingDir: '/app',
            env: [
              { name: 'CAPTURE_JOB', value: JSON.stringify(spec) },
              { name: 'CAPTURE_TERMINATION_LOG', value: '/dev/termination-log' },
              { name: 'CAPTURE_ANNOTATIONS_FILE', value: '/etc/capture/annotations' },
              { name: 'HOME', value: '/tmp' },
            ],
            resources: { requests: { cpu: '1', memory: '1536Mi' }, limits: { cpu: '2', memory: '2560Mi' } },
            securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'FallbackToLogsOnError',
            volumeMounts: [
              { name: 'shm', mountPath: '/dev/shm' },
              { name: 'tmp', mountPath: '/tmp' },
              { name: 'pod-info', mountPath: '/etc/capture', readOnly: true },
            ],
          },
        ],
        volumes: [
          { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
          { name: 'tmp', emptyDir: { sizeLimit: '2Gi' } },
          { name: 'pod-info', downwardAPI: { items: [{ path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } }] } },
        ],
      },
    });
  });

  it('carries the job exactly as a forked worker gets it, and its deadline follows the timeout', () => {
    const pod = capturePod({ ...spec, timeoutSeconds: 30 }, options);
    const env = pod.spec!.containers[0].env!;
    expect(JSON.parse(env.find((e) => e.name === 'CAPTURE_JOB')!.value!)).toEqual({ ...spec, timeoutSeconds: 30 });
    expect(pod.spec!.activeDeadlineSeconds).toBe(150);
  });

  it('asks for resources by frame size: 720p and smaller, then larger (README Benchmarks: 0.81 and 1.37 cores)', () => {
    const small = { requests: { cpu: '1', memory: '1536Mi' }, limits: { cpu: '2', memory: '2560Mi' } };
    const large = { requests: { cpu: '1500m', memory: '2Gi' }, limits: { cpu: '3', memory: '3Gi' } };
    expect([capturePodResources(1280, 720), capturePodResources(720, 1280), capturePodResources(720, 720)]).toEqual([small, small, small]);
    expect([capturePodResources(1920, 1080), capturePodResources(1080, 1920), capturePodResources(1080, 1080)]).toEqual([large, large, large]);
    expect(capturePod({ ...spec, width: 1920, height: 1080 }, options).spec!.containers[0].resources).toEqual(large);
  });

  it('names the pull secrets when there are some', () => {
    expect(capturePod(spec, { ...options, imagePullSecrets: ['regcred'] }).spec!.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(capturePod(spec, { ...options, imagePullSecrets: [] }).spec!.imagePullSecrets).toBeUndefined();
  });

  it('names a Pod in lower case after its kind and job, a suffix apart; selects one installation’s Pods of one kind', () => {
    expect(capturePodName('web_input', 'Ab3dEfGh', 'x1y2z')).toBe('web-input-ab3defgh-x1y2z');
    expect(capturePodName('broadcast', 'A_B', '00000')).toBe('broadcast-a-b-00000');
    expect(capturePodName('web_input', 'a'.repeat(60), 'zzzzz')).toHaveLength(10 + 40 + 6);
    expect(capturePodSelector('vp', 'web_input')).toBe(
      'app.kubernetes.io/component=capture-worker,app.kubernetes.io/instance=vp,video-platform/job-kind=web_input',
    );
  });
});
