import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readUntil, until } from '@platform/testing';
import { parseAllDocuments } from 'yaml';
import { KubeApi, KubeObject } from './kube-api';

/**
 * The chart on a real Kubernetes API server (scripts/infra/kube.sh: kube-apiserver, etcd, controller-manager
 * and scheduler, with kwok faking the node's kubelet, so Pods are scheduled and turn Ready but no container
 * runs). Every ci/ values set is accepted by the server with strict field validation (KEDA's and the
 * Prometheus operator's own CRDs installed); `helm install --wait`, `upgrade` and `uninstall` run for real;
 * each ServiceAccount is checked for what it may and may not do.
 */
const ROOT = path.resolve(__dirname, '../..');
const CHART = path.join(ROOT, 'charts/video-platform');
const VALUES = fs.readdirSync(path.join(CHART, 'ci')).filter((f) => f.endsWith('-values.yaml'));
const SERVICES = ['analytics', 'assets', 'gateway', 'live', 'playback-auth', 'spaces', 'transcoder', 'uploads', 'web-inputs', 'webhooks'];
const RELEASE = 'vp';

/** The REST collection of each kind the chart renders. */
const COLLECTIONS: Record<string, string> = {
  ConfigMap: 'api/v1/namespaces/NS/configmaps',
  Secret: 'api/v1/namespaces/NS/secrets',
  Service: 'api/v1/namespaces/NS/services',
  ServiceAccount: 'api/v1/namespaces/NS/serviceaccounts',
  Deployment: 'apis/apps/v1/namespaces/NS/deployments',
  HorizontalPodAutoscaler: 'apis/autoscaling/v2/namespaces/NS/horizontalpodautoscalers',
  Ingress: 'apis/networking.k8s.io/v1/namespaces/NS/ingresses',
  NetworkPolicy: 'apis/networking.k8s.io/v1/namespaces/NS/networkpolicies',
  PodDisruptionBudget: 'apis/policy/v1/namespaces/NS/poddisruptionbudgets',
  Role: 'apis/rbac.authorization.k8s.io/v1/namespaces/NS/roles',
  RoleBinding: 'apis/rbac.authorization.k8s.io/v1/namespaces/NS/rolebindings',
  ScaledObject: 'apis/keda.sh/v1alpha1/namespaces/NS/scaledobjects',
  ServiceMonitor: 'apis/monitoring.coreos.com/v1/namespaces/NS/servicemonitors',
};

jest.setTimeout(600_000);

const kubeconfig = process.env.TEST_KUBECONFIG;
if (!kubeconfig) {
  throw new Error('TEST_KUBECONFIG is not set: start the cluster (scripts/infra/kube.sh start) and export TEST_KUBECONFIG=$(scripts/infra/kube.sh kubeconfig)');
}

describe('the chart on a real API server (kube-apiserver + kwok)', () => {
  const admin = KubeApi.fromKubeconfig(kubeconfig);
  const namespace = `vp-${randomBytes(3).toString('hex')}`;
  let helmPath: string;
  const helm = (...args: string[]) => spawnSync(helmPath, [...args, '--kubeconfig', kubeconfig, '--namespace', namespace], { encoding: 'utf8' });
  const render = (values: string) => {
    const r = helm('template', RELEASE, CHART, '-f', path.join(CHART, 'ci', values));
    if (r.status !== 0) throw new Error(`helm template -f ${values}: ${r.stderr}`);
    return parseAllDocuments(r.stdout)
      .map((d) => d.toJS() as KubeObject | null)
      .filter((o): o is KubeObject => o !== null);
  };
  const ns = (collection: string) => `/${collection.replace('NS', namespace)}`;
  const items = async (collection: string, selector = `app.kubernetes.io/instance=${RELEASE}`) => {
    const r = await admin.get(`${ns(collection)}?labelSelector=${encodeURIComponent(selector)}`);
    expect(r.status).toBe(200);
    return r.body.items ?? [];
  };
  const names = (objects: KubeObject[]) => objects.map((o) => o.metadata?.name ?? '').sort();

  beforeAll(async () => {
    helmPath = execFileSync('bash', [path.join(ROOT, 'scripts/infra/helm.sh')], { encoding: 'utf8' }).trim();
    const crds = execFileSync('bash', [path.join(ROOT, 'scripts/infra/k8s-crds.sh')], { encoding: 'utf8' }).trim();
    for (const file of fs.readdirSync(crds).filter((f) => f.endsWith('.yaml'))) {
      const crd = parseAllDocuments(fs.readFileSync(path.join(crds, file), 'utf8'))[0].toJS() as KubeObject;
      const r = await admin.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
      expect([201, 409]).toContain(r.status);
      await until(
        `CRD ${crd.metadata?.name} established`,
        async () => {
          const got = await admin.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata?.name}`);
          const conditions = (got.body.status?.conditions ?? []) as Array<{ type: string; status: string }>;
          return conditions.some((c) => c.type === 'Established' && c.status === 'True');
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
    }
    expect((await admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })).status).toBe(201);
  });

  afterAll(async () => {
    await admin.delete(`/api/v1/namespaces/${namespace}`);
  });

  it.each(VALUES)('%s: the API server accepts every rendered object (dry run, strict field validation, CRDs included)', async (values) => {
    const rejected: string[] = [];
    for (const object of render(values)) {
      const collection = COLLECTIONS[object.kind!];
      expect({ kind: object.kind, known: collection !== undefined }).toEqual({ kind: object.kind, known: true });
      const r = await admin.post(`${ns(collection)}?dryRun=All&fieldValidation=Strict`, object);
      if (r.status !== 201) rejected.push(`${object.kind}/${object.metadata?.name}: ${r.status} ${r.body.message}`);
    }
    expect(rejected).toEqual([]);
  });

  it('rejects a bad object, so the dry run above can fail', async () => {
    const [deployment] = render('minimal-values.yaml').filter((o) => o.kind === 'Deployment');
    const bad = { ...deployment, spec: { ...deployment.spec, replicaz: 2 } };
    const r = await admin.post(`${ns(COLLECTIONS.Deployment)}?dryRun=All&fieldValidation=Strict`, bad);
    expect({ status: r.status, message: r.body.message }).toEqual({ status: 400, message: expect.stringContaining('unknown field "spec.replicaz"') });
  });

  /**
   * Deployments once their own status says what helm's --wait saw: helm reads each one's new ReplicaSet, and the
   * Deployment's status is the deployment controller's to update, a moment later on a loaded machine.
   */
  const statusReported = (read: () => Promise<KubeObject[]>) =>
    readUntil(read, (all) => all.every((d) => d.status?.readyReplicas === d.spec?.replicas), { timeoutMs: 60_000, intervalMs: 500 });

  describe('helm install, upgrade and uninstall (everything-values.yaml)', () => {
    let grantSecret: string;
    const values = ['-f', path.join(CHART, 'ci/everything-values.yaml')];

    it('installs with --wait: every Deployment available, every Pod scheduled and Ready', async () => {
      const r = helm('install', RELEASE, CHART, ...values, '--wait', '--timeout', '5m');
      expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ status: 0, stderr: '' });
      expect(r.stdout).toContain('STATUS: deployed');

      const deployments = await statusReported(() => items(COLLECTIONS.Deployment));
      expect(names(deployments)).toEqual(SERVICES.map((s) => `${RELEASE}-${s}`).sort());
      for (const d of deployments) {
        expect({ name: d.metadata?.name, ready: d.status?.readyReplicas }).toEqual({ name: d.metadata?.name, ready: d.spec?.replicas });
      }
      const pods = await items('api/v1/namespaces/NS/pods');
      const replicas = deployments.reduce((sum, d) => sum + (d.spec?.replicas as number), 0);
      expect(pods).toHaveLength(replicas);
      for (const pod of pods) {
        const conditions = (pod.status?.conditions ?? []) as Array<{ type: string; status: string }>;
        expect({
          pod: pod.metadata?.name,
          phase: pod.status?.phase,
          node: pod.spec?.nodeName,
          ready: conditions.find((c) => c.type === 'Ready')?.status,
          ip: pod.status?.podIP,
        }).toEqual({ pod: pod.metadata?.name, phase: 'Running', node: 'kwok-node-0', ready: 'True', ip: expect.stringMatching(/^10\.244\.0\.\d+$/) });
      }
      const secret = await admin.get(`${ns(COLLECTIONS.Secret)}/${RELEASE}-secrets`);
      grantSecret = Buffer.from(secret.body.data!.PLAYBACK_GRANT_SECRET, 'base64').toString('utf8');
      expect(grantSecret).toBe('grant-secret-of-32-bytes-at-least-xxxx');
    });

    it('gives each service its own ServiceAccount; only the launchers (web-inputs, spaces) may run Pods, and none may read Secrets', async () => {
      const accounts = await items('api/v1/namespaces/NS/serviceaccounts');
      expect(names(accounts)).toEqual(SERVICES.map((s) => `${RELEASE}-${s}`).sort());
      const may = async (token: string, verb: string, resource: string, where = namespace) => {
        const review = {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { namespace: where, verb, resource } },
        };
        const r = await admin.withToken(token).post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review);
        expect(r.status).toBe(201);
        return r.body.status?.allowed === true;
      };
      const grants: Record<string, Record<string, boolean>> = {};
      for (const service of SERVICES) {
        const token = await serviceAccountToken(`${RELEASE}-${service}`);
        grants[service] = {
          'create pods': await may(token, 'create', 'pods'),
          'delete pods': await may(token, 'delete', 'pods'),
          'watch pods': await may(token, 'watch', 'pods'),
          'patch pods': await may(token, 'patch', 'pods'),
          'create pods in default': await may(token, 'create', 'pods', 'default'),
          'get secrets': await may(token, 'get', 'secrets'),
          'create deployments': await may(token, 'create', 'deployments'),
        };
      }
      const none = {
        'create pods': false,
        'delete pods': false,
        'watch pods': false,
        'patch pods': false,
        'create pods in default': false,
        'get secrets': false,
        'create deployments': false,
      };
      const launcher = { ...none, 'create pods': true, 'delete pods': true, 'watch pods': true, 'patch pods': true };
      expect(grants).toEqual(Object.fromEntries(SERVICES.map((s) => [s, s === 'web-inputs' || s === 'spaces' ? launcher : none])));
    });

    it('the launcher really creates and deletes a Pod in its namespace, and is refused in another', async () => {
      const launcher = admin.withToken(await serviceAccountToken(`${RELEASE}-web-inputs`));
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'capture-probe' }, spec: { containers: [{ name: 'c', image: 'capture:test' }] } };
      const created = await launcher.post(ns('api/v1/namespaces/NS/pods'), pod);
      expect({ status: created.status, name: created.body.metadata?.name }).toEqual({ status: 201, name: 'capture-probe' });
      await until(
        'the launched Pod running on the kwok node',
        async () => {
          const got = await launcher.get(`${ns('api/v1/namespaces/NS/pods')}/capture-probe`);
          return got.body.status?.phase === 'Running';
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      expect((await launcher.delete(`${ns('api/v1/namespaces/NS/pods')}/capture-probe`)).status).toBe(200);
      const elsewhere = await launcher.post('/api/v1/namespaces/default/pods', pod);
      expect({ status: elsewhere.status, reason: elsewhere.body.reason }).toEqual({ status: 403, reason: 'Forbidden' });
      const gateway = admin.withToken(await serviceAccountToken(`${RELEASE}-gateway`));
      expect((await gateway.post(ns('api/v1/namespaces/NS/pods'), pod)).status).toBe(403);
    });

    it('mounts an API token only into the launchers', async () => {
      const pods = await items('api/v1/namespaces/NS/pods');
      const mounted = pods.filter((p) =>
        (p.spec?.containers as Array<{ volumeMounts?: Array<{ mountPath: string }> }>)[0].volumeMounts?.some((m) => m.mountPath.includes('serviceaccount')),
      );
      expect(mounted.map((p) => p.metadata?.labels?.['app.kubernetes.io/component']).sort()).toEqual(['spaces', 'web-inputs']);
    });

    it('upgrades with --wait: a new replica count rolls out, the grant secret is kept', async () => {
      // the gateway: the transcoder's and webhooks' replicas belong to their autoscalers in this values set
      const r = helm('upgrade', RELEASE, CHART, ...values, '--set', 'services.gateway.replicas=3', '--wait', '--timeout', '5m');
      expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ status: 0, stderr: '' });
      expect(r.stdout).toMatch(/REVISION: 2/);
      const [gateway] = await statusReported(async () => [(await admin.get(`${ns(COLLECTIONS.Deployment)}/${RELEASE}-gateway`)).body]);
      expect({ replicas: gateway.spec?.replicas, ready: gateway.status?.readyReplicas }).toEqual({ replicas: 3, ready: 3 });
      const transcoder = await admin.get(`${ns(COLLECTIONS.Deployment)}/${RELEASE}-transcoder`);
      expect(transcoder.body.spec?.replicas).toBe(1);
      const secret = await admin.get(`${ns(COLLECTIONS.Secret)}/${RELEASE}-secrets`);
      expect(Buffer.from(secret.body.data!.PLAYBACK_GRANT_SECRET, 'base64').toString('utf8')).toBe(grantSecret);
    });

    it('uninstalls with --wait: nothing of the release is left', async () => {
      const r = helm('uninstall', RELEASE, '--wait', '--timeout', '5m');
      expect({ status: r.status, out: r.stdout }).toEqual({ status: 0, out: expect.stringContaining(`release "${RELEASE}" uninstalled`) });
      const left: Record<string, string[]> = {};
      for (const kind of Object.keys(COLLECTIONS)) left[kind] = names(await items(COLLECTIONS[kind]));
      expect(left).toEqual(Object.fromEntries(Object.keys(COLLECTIONS).map((k) => [k, []])));
      // the Pods go after their ReplicaSets, through the controller-manager's garbage collector
      await until('the Pods garbage-collected', async () => (await items('api/v1/namespaces/NS/pods')).length === 0, {
        timeoutMs: 60_000,
        intervalMs: 200,
      });
    });
  });

  describe('a generated grant secret', () => {
    it('is made once at install and kept by upgrades (helm lookup against the live Secret)', async () => {
      const minimal = ['-f', path.join(CHART, 'ci/minimal-values.yaml')];
      expect(helm('install', 'gen', CHART, ...minimal).status).toBe(0);
      const read = async () => {
        const secret = await admin.get(`${ns(COLLECTIONS.Secret)}/gen-secrets`);
        return Buffer.from(secret.body.data!.PLAYBACK_GRANT_SECRET, 'base64').toString('utf8');
      };
      const first = await read();
      expect(first).toMatch(/^.{32,}$/);
      expect(helm('upgrade', 'gen', CHART, ...minimal, '--set', 'config.logLevel=debug').status).toBe(0);
      expect(await read()).toBe(first);
      expect(helm('uninstall', 'gen', '--wait').status).toBe(0);
    });
  });

  async function serviceAccountToken(account: string): Promise<string> {
    const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } };
    const r = await admin.post<{ status: { token: string } }>(`${ns('api/v1/namespaces/NS/serviceaccounts')}/${account}/token`, request);
    expect(r.status).toBe(201);
    return r.body.status.token;
  }
});
