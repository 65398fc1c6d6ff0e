import { CoreV1Api, KubeConfig, V1Pod } from '@kubernetes/client-node';
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CaptureJobKind, CaptureJobSpec, CaptureReport } from '../capture-job';
import { CaptureLauncher } from '../capture-launcher';
import { RELOAD_GENERATION_ANNOTATION, reloadGeneration } from '../worker/pod-annotations';
import { CAPTURE_POD_LABELS, capturePod, capturePodName, capturePodSelector } from './capture-pod';
import { deletedOutcome, PodOutcome, podOutcome } from './pod-outcome';
import { describe, PodChange, PodWatch, statusOf } from './pod-watch';

export interface KubernetesPodLauncherOptions {
  namespace: string;
  /** The platform image (the worker is in it). */
  image: string;
  /** `app.kubernetes.io/instance` of this installation's Pods (the chart's release name). */
  instance: string;
  /** Which of the installation's capture Pods are this launcher's (web inputs' or spaces' broadcasts'). */
  jobKind: CaptureJobKind;
  imagePullSecrets?: string[];
  /** The worker's time to stop once its Pod is deleted (SIGTERM, then SIGKILL). */
  stopGraceSeconds?: number;
}

/** One launch: its Pod, who hears of it, and where it is on its way out. */
interface PodJob {
  jobId: string;
  podName: string;
  onReport: (report: CaptureReport) => void;
  generation: number;
  /** Our stop deleted it: a deletion then is a shutdown, not a failure. */
  stopping: boolean;
  ended: boolean;
  deleted: Promise<void>;
  markDeleted: () => void;
}

/** How long past the grace period a stop waits for the watch to show the Pod gone before asking the API itself. */
const GONE_CHECK_MS = 30_000;

/**
 * Each job is a Pod of its own (capture-pod.ts), created, watched and deleted through the Kubernetes API. The watch
 * on this installation's capture Pods of this kind delivers each job's `ended` exactly once, when its Pod has
 * Succeeded or Failed (then the Pod is deleted) or is deleted; a reload raises the Pod's reload-generation
 * annotation, which the worker reads through the Downward API; a stop deletes the Pod (the worker gets SIGTERM).
 * Pods outlive the service: `adopt` takes over those a previous run left and `close` only stops watching. The Pod
 * reports nothing else to the service (page loads and encoding go to its log).
 */
export class KubernetesPodLauncher implements CaptureLauncher {
  private readonly logger = new Logger('KubernetesPodLauncher');
  private readonly core: CoreV1Api;
  private readonly watch: PodWatch;
  /** By Pod name: a job's Pod from its launch until it is deleted. */
  private readonly pods = new Map<string, PodJob>();
  private watching: Promise<V1Pod[]> | undefined;

  constructor(
    kc: KubeConfig,
    private readonly o: KubernetesPodLauncherOptions,
  ) {
    this.core = kc.makeApiClient(CoreV1Api);
    this.watch = new PodWatch(kc, o.namespace, capturePodSelector(o.instance, o.jobKind), {
      onChange: (change, pod) => this.onChange(change, pod),
      onRelist: (pods) => this.onRelist(pods),
    });
  }

  async launch(spec: CaptureJobSpec, onReport: (report: CaptureReport) => void): Promise<void> {
    if (this.job(spec.jobId)) throw new Error(`capture job ${spec.jobId} is still running`);
    const name = capturePodName(this.o.jobKind, spec.jobId, randomSuffix());
    // known before it exists: the watch may report it before the create answers
    const job = this.track(spec.jobId, name, onReport, 0);
    try {
      await this.startWatching();
      const body = capturePod(spec, { ...this.o, name });
      await this.core.createNamespacedPod({ namespace: this.o.namespace, body });
    } catch (err) {
      this.pods.delete(job.podName);
      throw new Error(`the capture Pod could not be created: ${describe(err)}`, { cause: err });
    }
  }

  async reload(jobId: string): Promise<boolean> {
    const job = this.job(jobId);
    if (!job) return false;
    const generation = job.generation + 1;
    const path = `/metadata/annotations/${RELOAD_GENERATION_ANNOTATION.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    try {
      await this.core.patchNamespacedPod({ name: job.podName, namespace: this.o.namespace, body: [{ op: 'add', path, value: String(generation) }] });
    } catch (err) {
      if (statusOf(err) === 404) return false;
      throw new Error(`the capture Pod ${job.podName} could not be told to reload: ${describe(err)}`, { cause: err });
    }
    job.generation = Math.max(job.generation, generation);
    return true;
  }

  async stop(jobId: string): Promise<void> {
    const job = this.job(jobId);
    if (!job) return;
    job.stopping = true;
    await this.deletePod(job.podName, this.o.stopGraceSeconds ?? 15);
    await this.gone(job);
  }

  running(): string[] {
    return [...this.pods.values()].filter((j) => !j.ended).map((j) => j.jobId);
  }

  /**
   * Lists this installation's Pods of this kind and takes each job over (the newest Pod of a job id, when a
   * relaunch left an older one behind); those that ended meanwhile report it now and are deleted.
   */
  async adopt(onReport: (jobId: string, report: CaptureReport) => void): Promise<string[]> {
    const pods = this.watching ? await this.watch.list() : await this.startWatching();
    const current = new Map<string, V1Pod>();
    for (const pod of pods) {
      const jobId = pod.metadata?.labels?.[CAPTURE_POD_LABELS.jobId];
      if (!jobId || this.pods.has(pod.metadata?.name ?? '')) continue;
      const other = current.get(jobId);
      if (other && supersedes(other, pod)) continue;
      if (other) this.deleteQuietly(other.metadata!.name!);
      current.set(jobId, pod);
    }
    for (const [jobId, pod] of current) {
      const job = this.track(jobId, pod.metadata!.name!, (report) => onReport(jobId, report), reloadGeneration(pod.metadata?.annotations ?? {}));
      // a previous run's stop was under way
      job.stopping = Boolean(pod.metadata?.deletionTimestamp);
    }
    for (const pod of current.values()) this.onChange('MODIFIED', pod);
    return [...current.keys()].filter((id) => this.job(id));
  }

  /** The Pods keep running; the next start adopts them. */
  close(): Promise<void> {
    this.watch.stop();
    return Promise.resolve();
  }

  private job(jobId: string): PodJob | undefined {
    return [...this.pods.values()].find((j) => j.jobId === jobId && !j.ended);
  }

  private track(jobId: string, podName: string, onReport: (report: CaptureReport) => void, generation: number): PodJob {
    let markDeleted = () => {};
    const deleted = new Promise<void>((resolve) => (markDeleted = resolve));
    const job: PodJob = { jobId, podName, onReport, generation, stopping: false, ended: false, deleted, markDeleted };
    this.pods.set(podName, job);
    return job;
  }

  private startWatching(): Promise<V1Pod[]> {
    this.watching ??= this.watch.start().catch((err: unknown) => {
      this.watching = undefined;
      throw new Error(`the capture Pods in ${this.o.namespace} could not be listed: ${describe(err)}`, { cause: err });
    });
    return this.watching;
  }

  private onChange(change: PodChange, pod: V1Pod): void {
    const job = this.pods.get(pod.metadata?.name ?? '');
    if (!job) return;
    if (change === 'DELETED') return this.onDeleted(job, pod);
    const outcome = podOutcome(pod);
    if (!outcome) return;
    this.end(job, outcome);
    this.deleteQuietly(job.podName);
  }

  private onDeleted(job: PodJob, pod?: V1Pod): void {
    this.end(job, (pod && podOutcome(pod)) ?? deletedOutcome(job.stopping));
    this.pods.delete(job.podName);
    job.markDeleted();
  }

  /**
   * After a gap in the watch: the listed Pods may have ended; one not listed was deleted meanwhile, or is being
   * created as the list was taken, so it is read back before it counts as gone.
   */
  private onRelist(pods: V1Pod[]): void {
    const listed = new Set(pods.map((p) => p.metadata?.name));
    for (const pod of pods) this.onChange('MODIFIED', pod);
    for (const job of [...this.pods.values()]) {
      if (!listed.has(job.podName)) this.readBack(job).catch((err: unknown) => this.logger.warn(describe(err)));
    }
  }

  /** Asks the API for the job's Pod: gone (404) is a deletion, otherwise it is taken as a change. Answers whether it is gone. */
  private async readBack(job: PodJob): Promise<boolean> {
    try {
      this.onChange('MODIFIED', await this.core.readNamespacedPod({ name: job.podName, namespace: this.o.namespace }));
      return false;
    } catch (err) {
      if (statusOf(err) !== 404) throw new Error(`the capture Pod ${job.podName} could not be read: ${describe(err)}`, { cause: err });
      this.onDeleted(job);
      return true;
    }
  }

  private end(job: PodJob, outcome: PodOutcome): void {
    if (job.ended) return;
    job.ended = true;
    job.onReport({ type: 'ended', ...outcome });
  }

  /** Resolves once the watch has seen the Pod go; past the grace period, the API is asked directly. */
  private async gone(job: PodJob): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const check = new Promise<void>((resolve, reject) => {
      const readBack = () => {
        this.readBack(job).then((gone) => (gone ? resolve() : reject(new Error(`the capture Pod ${job.podName} is still there after its deletion`))), reject);
      };
      timer = setTimeout(readBack, (this.o.stopGraceSeconds ?? 15) * 1000 + GONE_CHECK_MS);
    });
    try {
      await Promise.race([job.deleted, check]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async deletePod(name: string, gracePeriodSeconds?: number): Promise<void> {
    try {
      await this.core.deleteNamespacedPod({ name, namespace: this.o.namespace, gracePeriodSeconds });
    } catch (err) {
      if (statusOf(err) !== 404) throw new Error(`the capture Pod ${name} could not be deleted: ${describe(err)}`, { cause: err });
    }
  }

  /** An ended Pod's deletion: a failure only leaves a finished Pod behind, which the next start deletes. */
  private deleteQuietly(name: string): void {
    this.deletePod(name).catch((err: unknown) => this.logger.warn(describe(err)));
  }
}

/** Whether `a` should stay the job's Pod rather than `b`: a running Pod over an ended one, else the newer. */
function supersedes(a: V1Pod, b: V1Pod): boolean {
  const endedA = podOutcome(a) !== undefined;
  const endedB = podOutcome(b) !== undefined;
  if (endedA !== endedB) return !endedA;
  const created = (pod: V1Pod) => new Date(pod.metadata?.creationTimestamp ?? 0).getTime();
  return created(a) >= created(b);
}

function randomSuffix(): string {
  return randomBytes(4).toString('hex').slice(0, 5);
}
