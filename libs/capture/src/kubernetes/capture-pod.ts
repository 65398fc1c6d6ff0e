import type { V1Pod, V1ResourceRequirements } from '@kubernetes/client-node';
import { CaptureJobKind, CaptureJobSpec } from '../capture-job';
import { RELOAD_GENERATION_ANNOTATION } from '../worker/pod-annotations';
import { POD_MODE_ENV } from '../worker/pod-channel';

/** The labels that mark a capture Pod: whose installation, what kind of job, which job. */
export const CAPTURE_POD_LABELS = {
  component: 'app.kubernetes.io/component',
  instance: 'app.kubernetes.io/instance',
  jobKind: 'video-platform/job-kind',
  jobId: 'video-platform/job-id',
} as const;
export const CAPTURE_COMPONENT = 'capture-worker';
export const CAPTURE_CONTAINER = 'capture-worker';

/**
 * The compiled worker in the platform image (services/Dockerfile: WORKDIR /app, the build's services/ copied there),
 * under tini as services run: PID 1 reaps what Chromium and PulseAudio leave orphaned and passes SIGTERM on.
 */
export const CAPTURE_WORKER_COMMAND = ['/usr/bin/tini', '--', 'node', 'libs/capture/dist/worker/capture-worker.js'];
export const IMAGE_WORKDIR = '/app';

/** Past the job's timeout the kubelet ends the Pod (the service's own backstop, CaptureJobs, is the same 2 min). */
export const DEADLINE_MARGIN_SECONDS = 120;
export const TERMINATION_LOG = '/dev/termination-log';
export const POD_INFO_DIR = '/etc/capture';

export interface CapturePodOptions {
  name: string;
  namespace: string;
  image: string;
  /** `app.kubernetes.io/instance`: the installation (the chart's release) the Pod belongs to. */
  instance: string;
  jobKind: CaptureJobKind;
  imagePullSecrets?: string[];
}

/**
 * What one job needs, by frame size (README, Benchmarks, web inputs: 720p30 used 0.81 core and at most 1.8 GiB,
 * 1080p30 1.37 cores and at most 2.35 GiB, memory summed over the job's processes, so an upper bound). Requests
 * cover the measured CPU and most of that memory; limits leave room above the peaks, since a job killed for
 * memory ends its stream.
 */
export function capturePodResources(width: number, height: number): V1ResourceRequirements {
  if (width * height <= 1280 * 720) return { requests: { cpu: '1', memory: '1536Mi' }, limits: { cpu: '2', memory: '2560Mi' } };
  return { requests: { cpu: '1500m', memory: '2Gi' }, limits: { cpu: '3', memory: '3Gi' } };
}

/** `<kind>-<job id in lower case>-<suffix>`: Pod names are lower case, job ids are not, so the suffix keeps them apart. */
export function capturePodName(jobKind: CaptureJobKind, jobId: string, suffix: string): string {
  const id = jobId
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 40);
  return `${jobKind.replace(/_/g, '-')}-${id}-${suffix}`.replace(/-+/g, '-');
}

/** The label selector of one installation's capture Pods of one kind. */
export function capturePodSelector(instance: string, jobKind: CaptureJobKind): string {
  const L = CAPTURE_POD_LABELS;
  return `${L.component}=${CAPTURE_COMPONENT},${L.instance}=${instance},${L.jobKind}=${jobKind}`;
}

/**
 * The Pod of one capture job: the worker in Pod mode (the job in CAPTURE_JOB, as a forked worker gets it; its end
 * in the termination log; reloads from the Downward API's annotations file), never restarted, ended by the kubelet
 * past its deadline, no API token, non-root with nothing it could escalate to.
 */
export function capturePod(spec: CaptureJobSpec, o: CapturePodOptions): V1Pod {
  const L = CAPTURE_POD_LABELS;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: o.name,
      namespace: o.namespace,
      labels: { [L.component]: CAPTURE_COMPONENT, [L.instance]: o.instance, [L.jobKind]: o.jobKind, [L.jobId]: spec.jobId },
      annotations: { [RELOAD_GENERATION_ANNOTATION]: '0' },
    },
    spec: {
      restartPolicy: 'Never',
      activeDeadlineSeconds: spec.timeoutSeconds + DEADLINE_MARGIN_SECONDS,
      terminationGracePeriodSeconds: 20,
      automountServiceAccountToken: false,
      // no variables for every Service of the namespace: the job needs none of them
      enableServiceLinks: false,
      ...(o.imagePullSecrets?.length ? { imagePullSecrets: o.imagePullSecrets.map((name) => ({ name })) } : {}),
      securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: CAPTURE_CONTAINER,
          image: o.image,
          command: CAPTURE_WORKER_COMMAND,
          workingDir: IMAGE_WORKDIR,
          env: [
            { name: 'CAPTURE_JOB', value: JSON.stringify(spec) },
            { name: POD_MODE_ENV.terminationLog, value: TERMINATION_LOG },
            { name: POD_MODE_ENV.annotationsFile, value: `${POD_INFO_DIR}/annotations` },
            // Chromium and fontconfig write under HOME; the root filesystem is read-only
            { name: 'HOME', value: '/tmp' },
          ],
          resources: capturePodResources(spec.width, spec.height),
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
          terminationMessagePath: TERMINATION_LOG,
          terminationMessagePolicy: 'FallbackToLogsOnError',
          volumeMounts: [
            { name: 'shm', mountPath: '/dev/shm' },
            { name: 'tmp', mountPath: '/tmp' },
            { name: 'pod-info', mountPath: POD_INFO_DIR, readOnly: true },
          ],
        },
      ],
      volumes: [
        // the runtime's default /dev/shm is 64 MiB: too small for Xvfb and PulseAudio's shared memory
        { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
        // the browser profile, the display's socket and Chromium's shared memory (--disable-dev-shm-usage)
        { name: 'tmp', emptyDir: { sizeLimit: '2Gi' } },
        { name: 'pod-info', downwardAPI: { items: [{ path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } }] } },
      ],
    },
  };
}
