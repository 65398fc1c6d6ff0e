import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * The chart's production settings (issue 18): least-privilege ServiceAccounts (only the launcher may
 * manage Pods), hardened containers, a PodDisruptionBudget per service, autoscalers where asked, and
 * NetworkPolicies that leave only the front doors open. Rendered with the values sets of ci/.
 */
const ROOT = path.resolve(__dirname, '../..');
const CHART = path.join(ROOT, 'charts/video-platform');

type Obj = { kind: string; metadata: { name: string }; spec?: any; rules?: any; roleRef?: any; subjects?: any; automountServiceAccountToken?: boolean };

let helm: string;
function render(values: string, extra: string[] = []): Obj[] {
  const r = spawnSync(helm, ['template', 'r', CHART, '-f', path.join(CHART, 'ci', values), ...extra], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return parseAllDocuments(r.stdout)
    .map((d) => d.toJS() as Obj)
    .filter((o) => o !== null);
}
const named = (objects: Obj[], kind: string) => new Map(objects.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o]));

/** The services that run capture jobs as Pods: web inputs' browsers and broadcasts' compositors. */
const LAUNCHERS = ['r-spaces', 'r-web-inputs'];

describe('the chart for production', () => {
  let minimal: Obj[];
  let everything: Obj[];
  beforeAll(() => {
    helm = execFileSync('bash', [path.join(ROOT, 'scripts/infra/helm.sh')], { encoding: 'utf8' }).trim();
    minimal = render('minimal-values.yaml');
    everything = render('everything-values.yaml');
  });

  it('gives each service its own ServiceAccount; only the launchers (web-inputs, spaces) get a token and may manage Pods', () => {
    const accounts = named(minimal, 'ServiceAccount');
    const deployments = named(minimal, 'Deployment');
    expect(accounts.size).toBe(10);
    for (const [name, deployment] of deployments) {
      const pod = deployment.spec.template.spec;
      expect(pod.serviceAccountName).toBe(name);
      expect({ name, automount: pod.automountServiceAccountToken, account: accounts.get(name)!.automountServiceAccountToken }).toEqual({
        name,
        automount: LAUNCHERS.includes(name),
        account: LAUNCHERS.includes(name),
      });
    }
    const roles = [...named(minimal, 'Role').values()];
    expect(roles.map((r) => r.metadata.name).sort()).toEqual(['r-spaces-pods', 'r-web-inputs-pods']);
    for (const role of roles) {
      expect(role.rules).toEqual([
        { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch', 'delete', 'patch'] },
        { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
      ]);
    }
    const bindings = [...named(minimal, 'RoleBinding').values()].map((b) => ({ role: b.roleRef.name, subjects: b.subjects }));
    expect(bindings.sort((a, b) => a.role.localeCompare(b.role))).toEqual(
      LAUNCHERS.map((name) => ({ role: `${name}-pods`, subjects: [{ kind: 'ServiceAccount', name, namespace: 'default' }] })),
    );
    expect(minimal.some((o) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding')).toBe(false);
  });

  it('runs every container non-root with a read-only root filesystem and no capabilities, writing only to /data and /tmp', () => {
    for (const deployment of named(minimal, 'Deployment').values()) {
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(container.volumeMounts).toEqual([
        { name: 'data', mountPath: '/data' },
        { name: 'tmp', mountPath: '/tmp' },
      ]);
      expect(pod.volumes).toEqual([
        { name: 'data', emptyDir: {} },
        { name: 'tmp', emptyDir: {} },
      ]);
      expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    }
  });

  it('keeps one pod of each service up through drains (PodDisruptionBudget)', () => {
    const budgets = named(minimal, 'PodDisruptionBudget');
    expect(budgets.size).toBe(10);
    for (const [name, deployment] of named(minimal, 'Deployment')) {
      expect(budgets.get(name)!.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: deployment.spec.selector.matchLabels } });
    }
  });

  it('scales the services asked for on CPU (HPA), their Deployments without a fixed replica count', () => {
    const cpuOnly = render('everything-values.yaml', ['--set', 'keda.enabled=false']);
    const scalers = named(cpuOnly, 'HorizontalPodAutoscaler');
    expect([...scalers.keys()].sort()).toEqual(['r-transcoder', 'r-webhooks']);
    expect(scalers.get('r-transcoder')!.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'r-transcoder' },
      minReplicas: 1,
      maxReplicas: 8,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    });
    const deployments = named(cpuOnly, 'Deployment');
    expect(deployments.get('r-transcoder')!.spec.replicas).toBeUndefined();
    expect(deployments.get('r-assets')!.spec.replicas).toBe(1);
    expect(named(minimal, 'HorizontalPodAutoscaler').size).toBe(0);
  });

  it('with KEDA, scales the transcoder on its job queue and the webhooks on their consumer lag and due deliveries, instead of CPU', () => {
    const scaled = named(everything, 'ScaledObject');
    expect([...scaled.keys()].sort()).toEqual(['r-transcoder', 'r-webhooks']);
    expect(scaled.get('r-transcoder')!.spec).toEqual({
      scaleTargetRef: { name: 'r-transcoder' },
      minReplicaCount: 1,
      maxReplicaCount: 10,
      pollingInterval: 15,
      triggers: [
        {
          type: 'postgresql',
          metadata: {
            connectionFromEnv: 'DATABASE_URL',
            query: `SELECT count(*) FROM "transcoder"."jobs" WHERE "status" IN ('queued', 'running', 'playable')`,
            targetQueryValue: '2',
          },
        },
      ],
    });
    expect(scaled.get('r-webhooks')!.spec).toEqual({
      scaleTargetRef: { name: 'r-webhooks' },
      minReplicaCount: 1,
      maxReplicaCount: 5,
      pollingInterval: 15,
      triggers: [
        // the consumer group as the cluster names it: KAFKA_NAMESPACE prefixes every group
        { type: 'kafka', metadata: { bootstrapServers: 'kafka-0.kafka:9092', consumerGroup: 'staging.webhooks', lagThreshold: '100' } },
        {
          type: 'postgresql',
          metadata: {
            connectionFromEnv: 'DATABASE_URL',
            query: `SELECT count(*) FROM "webhooks"."deliveries" WHERE "status" = 'pending' AND "next_attempt_at" <= now()`,
            targetQueryValue: '50',
          },
        },
      ],
    });
    const unprefixed = named(render('everything-values.yaml', ['--set', 'config.kafkaNamespace=']), 'ScaledObject');
    expect((unprefixed.get('r-webhooks')!.spec.triggers as Array<{ metadata: { consumerGroup?: string } }>)[0].metadata.consumerGroup).toBe('webhooks');
    // KEDA owns their replica counts: no HPA of ours for them, none fixed
    expect([...named(everything, 'HorizontalPodAutoscaler').keys()]).toEqual([]);
    expect(named(everything, 'Deployment').get('r-transcoder')!.spec.replicas).toBeUndefined();
    expect(named(everything, 'Deployment').get('r-webhooks')!.spec.replicas).toBeUndefined();
  });

  it('routes each front-door host to its Service port (Ingress), with TLS', () => {
    const [ingress] = everything.filter((o) => o.kind === 'Ingress');
    const backend = (service: string, port: string) => ({ service: { name: service, port: { name: port } } });
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(ingress.spec.rules).toEqual(
      expect.arrayContaining([
        { host: 'api.video.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: backend('r-gateway', 'http') }] } },
        { host: 'stream.video.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: backend('r-playback-auth', 'stream') }] } },
        { host: 'image.video.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: backend('r-playback-auth', 'image') }] } },
        { host: 'upload.video.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: backend('r-uploads', 'upload') }] } },
        { host: 'litix.video.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: backend('r-analytics', 'collector') }] } },
      ]),
    );
    expect(ingress.spec.rules).toHaveLength(5);
    expect(ingress.spec.tls).toEqual([{ secretName: 'video-tls', hosts: expect.arrayContaining(['api.video.example']) }]);
    expect(minimal.some((o) => o.kind === 'Ingress' || o.kind === 'ScaledObject')).toBe(false);
  });

  it('opens gRPC to the release’s pods only, and the front doors and metrics to everyone (NetworkPolicy)', () => {
    const policies = named(everything, 'NetworkPolicy');
    expect(policies.size).toBe(11);
    const releasePods = [
      {
        podSelector: {
          matchLabels: { 'app.kubernetes.io/instance': 'r' },
          matchExpressions: [{ key: 'app.kubernetes.io/component', operator: 'NotIn', values: ['capture-worker'] }],
        },
      },
    ];
    expect(policies.get('r-assets')!.spec.ingress).toEqual([
      { from: releasePods, ports: [{ port: 50051, protocol: 'TCP' }] },
      { ports: [{ port: 9464, protocol: 'TCP' }] },
    ]);
    expect(policies.get('r-gateway')!.spec.ingress).toEqual([
      {
        ports: [
          { port: 8080, protocol: 'TCP' },
          { port: 9464, protocol: 'TCP' },
        ],
      },
    ]);
    expect(policies.get('r-live')!.spec.ingress[1]).toEqual({
      ports: [
        { port: 1935, protocol: 'TCP' },
        { port: 6001, protocol: 'UDP' },
        { port: 9464, protocol: 'TCP' },
      ],
    });
    expect(policies.get('r-live')!.spec.policyTypes).toEqual(['Ingress']);
    expect(named(minimal, 'NetworkPolicy').size).toBe(0);
  });

  it('fences the capture Pods: nothing connects to them; they reach DNS, the live RTMP port, the spaces pod and what OUTBOUND_ALLOW allows', () => {
    const capture = named(everything, 'NetworkPolicy').get('r-capture-workers')!;
    const publicOnly = ['10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16'];
    expect(capture.spec).toEqual({
      podSelector: { matchLabels: { 'app.kubernetes.io/component': 'capture-worker', 'app.kubernetes.io/instance': 'r' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [],
      egress: [
        {
          ports: [
            { port: 53, protocol: 'UDP' },
            { port: 53, protocol: 'TCP' },
          ],
        },
        {
          to: [
            {
              podSelector: {
                matchLabels: { 'app.kubernetes.io/name': 'video-platform', 'app.kubernetes.io/instance': 'r', 'app.kubernetes.io/component': 'live' },
              },
            },
          ],
          ports: [{ port: 1935, protocol: 'TCP' }],
        },
        {
          to: [
            {
              podSelector: {
                matchLabels: { 'app.kubernetes.io/name': 'video-platform', 'app.kubernetes.io/instance': 'r', 'app.kubernetes.io/component': 'spaces' },
              },
            },
          ],
          ports: [
            { port: 8085, protocol: 'TCP' },
            { port: 1024, endPort: 65535, protocol: 'UDP' },
          ],
        },
        { to: [{ ipBlock: { cidr: '0.0.0.0/0', except: publicOnly } }, { ipBlock: { cidr: '::/0', except: ['fc00::/7', 'fe80::/10'] } }] },
      ],
    });
    const privateAllowed = named(render('everything-values.yaml', ['--set', 'config.outboundAllow=private']), 'NetworkPolicy').get('r-capture-workers')!;
    expect(privateAllowed.spec.egress[3].to).toEqual([
      { ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.0.0/16'] } },
      { ipBlock: { cidr: '::/0', except: ['fe80::/10'] } },
    ]);
    const noLauncher = render('everything-values.yaml', ['--set', 'services.web-inputs.launchesPods=false', '--set', 'services.spaces.launchesPods=false']);
    expect(named(noLauncher, 'NetworkPolicy').has('r-capture-workers')).toBe(false);
  });

  it('has the launcher run its capture jobs as Pods of the release: namespace, image, instance, pull secrets', () => {
    const envOf = (objects: Obj[]) => {
      const container = named(objects, 'Deployment').get('r-web-inputs')!.spec.template.spec.containers[0] as { env: Array<{ name: string; value: string }> };
      return Object.fromEntries(container.env.filter((e) => e.name.startsWith('CAPTURE_') && e.name !== 'CAPTURE_RTMP_URL').map((e) => [e.name, e.value]));
    };
    expect(envOf(minimal)).toEqual({
      CAPTURE_LAUNCHER: 'kubernetes',
      CAPTURE_NAMESPACE: 'default',
      CAPTURE_IMAGE: expect.stringMatching(/:/),
      CAPTURE_INSTANCE: 'r',
    });
    const image = named(minimal, 'Deployment').get('r-web-inputs')!.spec.template.spec.containers[0].image as string;
    expect(envOf(minimal).CAPTURE_IMAGE).toBe(image);
    const pulling = render('minimal-values.yaml', ['--set', 'imagePullSecrets[0].name=regcred', '--set', 'imagePullSecrets[1].name=mirror']);
    expect(envOf(pulling).CAPTURE_IMAGE_PULL_SECRETS).toBe('regcred,mirror');
    expect(envOf(render('minimal-values.yaml', ['--set', 'services.web-inputs.launchesPods=false']))).toEqual({});
    for (const [name, deployment] of named(minimal, 'Deployment')) {
      if (LAUNCHERS.includes(name)) continue;
      const env = (deployment.spec.template.spec.containers[0] as { env: Array<{ name: string }> }).env.map((e) => e.name);
      expect({ name, launcher: env.includes('CAPTURE_LAUNCHER') }).toEqual({ name, launcher: false });
    }
  });

  it.each([
    [['--set', 'services.transcoder.replica=2'], 'services.transcoder: Additional property replica is not allowed'],
    [['--set-string', 'services.assets.replicas=two'], 'services.assets.replicas: Invalid type. Expected: integer, given: string'],
    [['--set', 'autoscaling.transcoder.minReplicas=2'], 'autoscaling.transcoder: maxReplicas is required'],
    [['--set', 'config.kafkaBrokers=kafka'], 'config.kafkaBrokers: Does not match pattern'],
    [['--set', 'metrics.port=70000'], 'metrics.port: Must be less than or equal to 65535'],
    [['--set', 'services.live.serviceType=Public'], 'services.live.serviceType: services.live.serviceType must be one of the following'],
  ])('refuses bad values with a message naming them (values.schema.json): %j', (args, message) => {
    const r = spawnSync(helm, ['template', 'r', CHART, '-f', path.join(CHART, 'ci', 'minimal-values.yaml'), ...args], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(message);
  });
});
