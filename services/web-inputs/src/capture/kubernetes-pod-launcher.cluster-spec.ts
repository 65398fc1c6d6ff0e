import { CoreV1Api, KubeConfig, RbacAuthorizationV1Api, V1Pod, V1PolicyRule } from '@kubernetes/client-node';
import { loadConfig } from '@platform/config';
import { LiveStreamLookup } from '@platform/grpc';
import { fakeUnitOfWork, until } from '@platform/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CaptureJobSpec, CaptureReport, loadKubernetesCapture } from '@platform/capture';
import { InMemoryWebInputs } from '../testing/in-memory-web-inputs';
import { WebInputStates } from '../web-inputs/web-input-states';
import { WebInputsService } from '../web-inputs/web-inputs.service';
import { CaptureJobs } from './capture-jobs';

/**
 * The KubernetesPodLauncher against the real Kubernetes API server that scripts/infra/kube.sh builds and runs
 * (kube-apiserver, etcd, controller-manager and scheduler), as the chart's web-inputs ServiceAccount: a token for a
 * ServiceAccount bound to the Role the chart renders, in a namespace that enforces the `restricted` Pod Security
 * Standard. The node is kwok's: Pods are scheduled and marked Running, but NO CONTAINER RUNS, so the worker never
 * starts. Where a kubelet would report the worker's end, this test plays the kubelet and writes the Pod's status
 * itself (the status subresource, as the admin): phase, exit code and termination message.
 */
const ROOT = path.resolve(__dirname, '../../../..');
const kubeconfig = process.env.TEST_KUBECONFIG;
if (!kubeconfig) {
  throw new Error('TEST_KUBECONFIG is not set: start the cluster (scripts/infra/kube.sh start) and export TEST_KUBECONFIG=$(scripts/infra/kube.sh kubeconfig)');
}

jest.setTimeout(120_000);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The API server's pace: a Pod's changes take a while through the scheduler and kwok. */
const KUBE_POLL = { timeoutMs: 30_000, intervalMs: 200 };
const statusOf = (err: unknown) => (err as { code?: number }).code;

type KubernetesCapture = Awaited<ReturnType<typeof loadKubernetesCapture>>;
type KubernetesPodLauncher = InstanceType<KubernetesCapture['KubernetesPodLauncher']>;

describe('KubernetesPodLauncher on a real API server (kube-apiserver + kwok: no container runs)', () => {
  const admin = new KubeConfig();
  admin.loadFromFile(kubeconfig);
  const core = admin.makeApiClient(CoreV1Api);
  const namespace = `capture-${randomBytes(3).toString('hex')}`;
  const instance = 'vp';
  let launcherConfig: KubeConfig;
  const launchers: KubernetesPodLauncher[] = [];
  let kube: KubernetesCapture;
  const newLauncher = () => {
    const launcher = new kube.KubernetesPodLauncher(launcherConfig, {
      namespace,
      image: 'video-platform:test',
      instance,
      jobKind: 'web_input',
      stopGraceSeconds: 1,
    });
    launchers.push(launcher);
    return launcher;
  };

  const spec = (jobId: string): CaptureJobSpec => ({
    jobId,
    url: 'https://example.com/page',
    width: 1280,
    height: 720,
    fps: 30,
    rtmpUrl: 'rtmp://vp-live:1935/app/key',
    timeoutSeconds: 60,
    ffmpegPath: '/usr/bin/ffmpeg',
    chromiumPath: '/usr/bin/chromium',
    outboundAllow: 'public',
  });
  /** Launches, collecting what the launcher reports. */
  const launch = async (launcher: KubernetesPodLauncher, jobId: string) => {
    const reports: CaptureReport[] = [];
    await launcher.launch(spec(jobId), (r) => reports.push(r));
    return reports;
  };
  const podsOf = async (jobId: string): Promise<V1Pod[]> =>
    (await core.listNamespacedPod({ namespace, labelSelector: `video-platform/job-id=${jobId}` })).items;
  const podOf = async (jobId: string): Promise<V1Pod> => until(`the Pod of ${jobId}`, async () => (await podsOf(jobId))[0], KUBE_POLL);
  const running = (jobId: string) =>
    until(
      `${jobId}'s Pod Running on the kwok node`,
      async () => {
        const pod = (await podsOf(jobId))[0];
        return pod?.status?.phase === 'Running' ? pod : undefined;
      },
      KUBE_POLL,
    );
  const gone = (jobId: string) => until(`${jobId}'s Pod deleted`, async () => (await podsOf(jobId)).length === 0, KUBE_POLL);
  /** What a kubelet writes when the worker's container ends: the phase, the exit code, the termination message. */
  const kubeletEnds = async (pod: V1Pod, phase: 'Succeeded' | 'Failed', exitCode: number, message: string) => {
    const terminated = { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', message, startedAt: new Date(), finishedAt: new Date() };
    const status = [{ name: 'capture-worker', image: 'video-platform:test', imageID: '', ready: false, restartCount: 0, state: { terminated } }];
    await core.patchNamespacedPodStatus({
      name: pod.metadata!.name!,
      namespace,
      body: [
        { op: 'replace', path: '/status/phase', value: phase },
        { op: 'replace', path: '/status/containerStatuses', value: status },
      ],
    });
  };

  beforeAll(async () => {
    kube = await loadKubernetesCapture();
    const labels = { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'latest' };
    await core.createNamespace({ body: { metadata: { name: namespace, labels } } });
    // the ServiceAccount admission refuses Pods until the controller-manager has made the namespace's default account
    await until('the default ServiceAccount', () => core.readNamespacedServiceAccount({ name: 'default', namespace }).catch(() => undefined), KUBE_POLL);
    await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'launcher' } } });
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({ namespace, body: { metadata: { name: 'launcher' }, rules: chartLauncherRules() } });
    const binding = {
      metadata: { name: 'launcher' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'launcher' },
      subjects: [{ kind: 'ServiceAccount', name: 'launcher', namespace }],
    };
    await rbac.createNamespacedRoleBinding({ namespace, body: binding });
    const token = await core.createNamespacedServiceAccountToken({ name: 'launcher', namespace, body: { spec: { audiences: [], expirationSeconds: 3600 } } });
    const cluster = admin.getCurrentCluster()!;
    launcherConfig = new KubeConfig();
    launcherConfig.loadFromOptions({
      clusters: [{ name: 'test', server: cluster.server, caData: cluster.caData }],
      users: [{ name: 'launcher', token: token.status!.token }],
      contexts: [{ name: 'test', cluster: 'test', user: 'launcher' }],
      currentContext: 'test',
    });
  });

  afterAll(async () => {
    await Promise.all(launchers.map((l) => l.close()));
    await core.deleteNamespace({ name: namespace });
  });

  it('the namespace enforces the restricted Pod Security Standard (so the Pods below pass it)', async () => {
    const loose = { metadata: { name: 'loose' }, spec: { containers: [{ name: 'c', image: 'video-platform:test' }] } };
    const refused = await core.createNamespacedPod({ namespace, body: loose }).catch((err: unknown) => err);
    const { message } = JSON.parse(String((refused as { body?: unknown }).body)) as { message: string };
    expect({ code: statusOf(refused), message }).toEqual({ code: 403, message: expect.stringContaining('violates PodSecurity "restricted:latest"') });
  });

  it('creates the job’s Pod as the builder makes it; kwok schedules it and marks it Running; a second launch of the id is refused', async () => {
    const launcher = newLauncher();
    await launch(launcher, 'JobOne');
    const pod = await running('JobOne');
    const built = kube.capturePod(spec('JobOne'), { name: pod.metadata!.name!, namespace, image: 'video-platform:test', instance, jobKind: 'web_input' });
    expect(pod.metadata?.name).toMatch(/^web-input-jobone-[0-9a-f]{5}$/);
    expect({ labels: pod.metadata?.labels, annotations: pod.metadata?.annotations }).toEqual({
      labels: built.metadata!.labels,
      annotations: built.metadata!.annotations,
    });
    // as written, plus what the API server fills in (image pull policy, DNS policy, scheduler…)
    expect(pod.spec).toMatchObject(JSON.parse(JSON.stringify(built.spec)) as object);
    expect(pod.spec?.nodeName).toBe('kwok-node-0');
    expect(pod.spec?.containers[0].volumeMounts?.map((m) => m.mountPath)).toEqual(['/dev/shm', '/tmp', '/etc/capture']); // no API token mounted
    expect(launcher.running()).toEqual(['JobOne']);

    await expect(launch(launcher, 'JobOne')).rejects.toThrow('capture job JobOne is still running');
    expect(await podsOf('JobOne')).toHaveLength(1);
  });

  it('reloads by raising the Pod’s reload-generation annotation; a job it does not run is not reloaded', async () => {
    const launcher = newLauncher();
    await launch(launcher, 'JobReload');
    await running('JobReload');
    expect(await launcher.reload('JobReload')).toBe(true);
    expect(await launcher.reload('JobReload')).toBe(true);
    expect((await podOf('JobReload')).metadata?.annotations?.['video-platform/reload-generation']).toBe('2');
    expect(await launcher.reload('NoSuchJob')).toBe(false);
  });

  it.each<['Failed' | 'Succeeded', number, string, boolean]>([
    ['Failed', 1, 'could not load https://example.com/page: the page answered HTTP 404', true],
    ['Succeeded', 0, 'the timeout of 60 s passed', false],
  ])('a Pod the kubelet marks %s (exit %d) ends its job once, with the termination message, and is deleted', async (phase, exitCode, message, failed) => {
    const launcher = newLauncher();
    const id = `JobEnds${phase}`;
    const reports = await launch(launcher, id);
    const pod = await running(id);
    await kubeletEnds(pod, phase, exitCode, message);
    await until('the ended report', () => reports.length > 0, KUBE_POLL);
    await gone(id);
    await wait(1000); // nothing more arrives (the deletion is not a second end)
    expect(reports).toEqual([{ type: 'ended', reason: message, failed }]);
    expect(launcher.running()).not.toContain(id);
  });

  it('stops a job by deleting its Pod, resolving once it is gone and its end reported', async () => {
    const launcher = newLauncher();
    const reports = await launch(launcher, 'JobStop');
    await running('JobStop');
    await launcher.stop('JobStop');
    expect(reports).toEqual([{ type: 'ended', reason: 'shut down', failed: false }]);
    expect(await podsOf('JobStop')).toEqual([]);
    expect(launcher.running()).not.toContain('JobStop');
  });

  it('reports a Pod someone else deleted as a failed end', async () => {
    const launcher = newLauncher();
    const reports = await launch(launcher, 'JobDeleted');
    const pod = await running('JobDeleted');
    await core.deleteNamespacedPod({ name: pod.metadata!.name!, namespace });
    await until('the ended report', () => reports.length > 0, KUBE_POLL);
    expect(reports).toEqual([{ type: 'ended', reason: 'the capture Pod was deleted', failed: true }]);
  });

  it('a restarted service adopts its Pods: keeps the web inputs whose Pods run, idles the rest, deletes unwanted and ended Pods', async () => {
    const before = newLauncher();
    for (const id of ['WiKept', 'WiUnwanted', 'WiEnded']) await launch(before, id);
    for (const id of ['WiKept', 'WiUnwanted', 'WiEnded']) await running(id);
    expect(await before.reload('WiKept')).toBe(true);
    await before.close(); // the service stops: its Pods run on
    await kubeletEnds(await podOf('WiEnded'), 'Succeeded', 0, 'the timeout of 60 s passed'); // while no service runs

    const repo = new InMemoryWebInputs();
    const now = new Date();
    const row = (id: string, status: 'idle' | 'launching' | 'streaming') =>
      repo.rows.set(id, {
        id,
        url: 'https://example.com/',
        autoLaunch: false,
        liveStreamId: 'ls',
        status,
        passthrough: null,
        resolution: '1280x720',
        timeout: 60,
        launchedAt: now,
        createdAt: now,
        updatedAt: now,
      });
    row('WiKept', 'streaming');
    row('WiUnwanted', 'idle');
    row('WiEnded', 'streaming');
    row('WiNoPod', 'launching');
    const uow = fakeUnitOfWork();
    const states = new WebInputStates(repo as never, uow.unitOfWork);
    const config = loadConfig({ OUTBOUND_ALLOW: 'public', CHROMIUM_PATH: '/usr/bin/chromium' });
    const after = newLauncher();
    const jobs = new CaptureJobs(after, states, config);
    const service = new WebInputsService(repo as never, states, jobs, {} as LiveStreamLookup, uow.unitOfWork, config);
    await service.onApplicationBootstrap();
    await until('the ended Pod’s web input idle', () => repo.rows.get('WiEnded')!.status === 'idle', KUBE_POLL);

    expect(Object.fromEntries([...repo.rows.values()].map((w) => [w.id, w.status]))).toEqual({
      WiKept: 'streaming',
      WiUnwanted: 'idle',
      WiEnded: 'idle',
      WiNoPod: 'idle',
    });
    expect(after.running()).toEqual(['WiKept']);
    await gone('WiUnwanted');
    await gone('WiEnded');
    // the adopted job is the new launcher's to reload (counting on from the old one's) and to stop
    expect(await after.reload('WiKept')).toBe(true);
    expect((await podOf('WiKept')).metadata?.annotations?.['video-platform/reload-generation']).toBe('2');
    await service.shutdown('WiKept');
    expect(repo.rows.get('WiKept')!.status).toBe('idle');
    await gone('WiKept');
  });
});

/** The rules of the Role the chart gives the web-inputs ServiceAccount (charts/video-platform, minimal values). */
function chartLauncherRules(): V1PolicyRule[] {
  const helm = execFileSync('bash', [path.join(ROOT, 'scripts/infra/helm.sh')], { encoding: 'utf8' }).trim();
  const chart = path.join(ROOT, 'charts/video-platform');
  const out = execFileSync(helm, ['template', 'r', chart, '-f', path.join(chart, 'ci/minimal-values.yaml'), '--show-only', 'templates/serviceaccounts.yaml'], {
    encoding: 'utf8',
  });
  const role = parseAllDocuments(out)
    .map((d) => d.toJS() as { kind?: string; metadata?: { name?: string }; rules?: V1PolicyRule[] } | null)
    .find((o) => o?.kind === 'Role' && o.metadata?.name === 'r-web-inputs-pods');
  return role!.rules!;
}
