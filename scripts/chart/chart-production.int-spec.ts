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
/** `helm template` of release `r` with a values file of ci/ and more flags. */
function template(values: string, extra: string[] = []) {
  helm ??= execFileSync('bash', [path.join(ROOT, 'scripts/infra/helm.sh')], { encoding: 'utf8' }).trim();
  return spawnSync(helm, ['template', 'r', CHART, '-f', path.join(CHART, 'ci', values), ...extra], { encoding: 'utf8' });
}
function render(values: string, extra: string[] = []): Obj[] {
  const r = template(values, extra);
  if (r.status !== 0) throw new Error(r.stderr);
  return parseAllDocuments(r.stdout)
    .map((d) => d.toJS() as Obj)
    .filter((o) => o !== null);
}
/** everything-values.yaml as rendered, once for both describes. */
let everythingRendered: Obj[] | undefined;
const renderEverything = () => (everythingRendered ??= render('everything-values.yaml'));
const named = (objects: Obj[], kind: string) => new Map(objects.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o]));

/** The services that run capture jobs as Pods: web inputs' browsers and broadcasts' compositors. */
const LAUNCHERS = ['r-spaces', 'r-web-inputs'];

describe('the chart for production', () => {
  let minimal: Obj[];
  let everything: Obj[];
  beforeAll(() => {
    minimal = render('minimal-values.yaml');
    everything = renderEverything();
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
    // the SFU's ICE ports exposed (services.spaces.media, NodePort here): one UDP range from anywhere
    expect(policies.get('r-spaces')!.spec.ingress).toEqual([
      { from: releasePods, ports: [{ port: 50055, protocol: 'TCP' }] },
      {
        ports: [
          { port: 8085, protocol: 'TCP' },
          { port: 32000, endPort: 32019, protocol: 'UDP' },
          { port: 9464, protocol: 'TCP' },
        ],
      },
    ]);
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
          // the SFU's ICE ports (services.spaces.media.icePorts; any unprivileged port when its media is not exposed)
          ports: [
            { port: 8085, protocol: 'TCP' },
            { port: 32000, endPort: 32019, protocol: 'UDP' },
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
    const r = template('minimal-values.yaml', args);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(message);
  });
});

/**
 * The spaces SFU's media (services.spaces.media): participants' WebRTC media is UDP to the spaces pod on the ICE
 * ports, announced at the pod's own addresses and `addresses`. Not exposed by default; on the node's network
 * (hostNetwork), or through the Service <release>-spaces-media (LoadBalancer, NodePort), one UDP port per ICE port.
 */
describe('the spaces SFU’s media (services.spaces.media)', () => {
  type Env = Array<{ name: string; value?: string }>;
  type Port = { name: string; containerPort: number; protocol: string };
  const MEDIA = 'services.spaces.media';
  const spacesPod = (objects: Obj[]) => named(objects, 'Deployment').get('r-spaces')!.spec.template.spec;
  const iceEnv = (objects: Obj[]) =>
    Object.fromEntries((spacesPod(objects).containers[0].env as Env).filter((e) => e.name.startsWith('SPACES_ICE_')).map((e) => [e.name, e.value]));
  const udpPorts = (objects: Obj[]) => (spacesPod(objects).containers[0].ports as Port[]).filter((p) => p.protocol === 'UDP');
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const icePorts = (from: number, to: number) => range(from, to).map((port) => ({ name: `ice-${port}`, containerPort: port, protocol: 'UDP' }));
  /** The media Service's ports: each ICE port to the same port of the pod (with NodePort, the same nodePort too). */
  const servicePorts = (from: number, to: number, { nodePorts = false } = {}) =>
    range(from, to).map((port) => ({ name: `ice-${port}`, port, targetPort: port, ...(nodePorts ? { nodePort: port } : {}), protocol: 'UDP' }));
  const spacesPolicy = (objects: Obj[]) => named(objects, 'NetworkPolicy').get('r-spaces')!.spec.ingress;
  const captureEgress = (objects: Obj[]) => named(objects, 'NetworkPolicy').get('r-capture-workers')!.spec.egress;
  const spacesSelector = { 'app.kubernetes.io/name': 'video-platform', 'app.kubernetes.io/instance': 'r', 'app.kubernetes.io/component': 'spaces' };
  const renderWith = (...args: string[]) => render('minimal-values.yaml', ['--set', 'networkPolicy.enabled=true', ...args]);

  it('none (the default): no ICE settings, no UDP port, no media Service, the pod on its own network; compositors still reach the SFU', () => {
    const objects = renderWith();
    expect(iceEnv(objects)).toEqual({});
    expect(udpPorts(objects)).toEqual([]);
    expect(named(objects, 'Service').has('r-spaces-media')).toBe(false);
    expect(spacesPod(objects).hostNetwork).toBeUndefined();
    expect(spacesPod(objects).dnsPolicy).toBeUndefined();
    // the compositor (a capture Pod) sends its WebRTC media to the SFU on whatever port it bound
    expect(spacesPolicy(objects)).toContainEqual({
      from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/component': 'capture-worker', 'app.kubernetes.io/instance': 'r' } } }],
      ports: [{ port: 1024, endPort: 65535, protocol: 'UDP' }],
    });
    expect(captureEgress(objects)[2]).toEqual({
      to: [{ podSelector: { matchLabels: spacesSelector } }],
      ports: [
        { port: 8085, protocol: 'TCP' },
        { port: 1024, endPort: 65535, protocol: 'UDP' },
      ],
    });
    expect(captureEgress(objects)).toHaveLength(4);
  });

  it('hostNetwork: the spaces pod (only) on its node’s network with cluster DNS, its ICE ports as container ports, addresses optional', () => {
    const objects = renderWith('--set', `${MEDIA}.expose=hostNetwork`);
    const pod = spacesPod(objects);
    expect({ hostNetwork: pod.hostNetwork, dnsPolicy: pod.dnsPolicy }).toEqual({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' });
    for (const [name, deployment] of named(objects, 'Deployment')) {
      if (name !== 'r-spaces') expect({ name, hostNetwork: deployment.spec.template.spec.hostNetwork }).toEqual({ name, hostNetwork: undefined });
    }
    // the node's own addresses are host candidates already
    expect(iceEnv(objects)).toEqual({ SPACES_ICE_PORTS: '40000-40099' });
    expect(udpPorts(objects)).toEqual(icePorts(40000, 40099));
    expect(named(objects, 'Service').has('r-spaces-media')).toBe(false);
    expect(spacesPolicy(objects)[1]).toEqual({
      ports: [
        { port: 8085, protocol: 'TCP' },
        { port: 40000, endPort: 40099, protocol: 'UDP' },
        { port: 9464, protocol: 'TCP' },
      ],
    });
    // pod selectors do not match a pod on the node's network: the compositor reaches its ports on any address
    expect(captureEgress(objects).slice(2, 4)).toEqual([
      {
        to: [{ podSelector: { matchLabels: spacesSelector } }],
        ports: [
          { port: 8085, protocol: 'TCP' },
          { port: 40000, endPort: 40099, protocol: 'UDP' },
        ],
      },
      {
        to: [{ ipBlock: { cidr: '0.0.0.0/0' } }, { ipBlock: { cidr: '::/0' } }],
        ports: [
          { port: 8085, protocol: 'TCP' },
          { port: 40000, endPort: 40099, protocol: 'UDP' },
        ],
      },
    ]);

    // a public address the node does not have (a cloud VM's), the pod pinned to that node; the old pod stops first
    const pinned = renderWith(
      '--set',
      `${MEDIA}.expose=hostNetwork`,
      '--set',
      `${MEDIA}.icePorts=41000-41009`,
      '--set',
      `${MEDIA}.addresses={198.51.100.4}`,
      '--set',
      'services.spaces.nodeSelector.video\\.example/media=sfu',
      '--set',
      'nodeSelector.kubernetes\\.io/os=linux',
      '--set',
      'services.spaces.launchesPods=false',
    );
    expect(iceEnv(pinned)).toEqual({ SPACES_ICE_PORTS: '41000-41009', SPACES_ICE_ADDRESSES: '198.51.100.4' });
    expect(udpPorts(pinned)).toEqual(icePorts(41000, 41009));
    expect(spacesPod(pinned).nodeSelector).toEqual({ 'video.example/media': 'sfu', 'kubernetes.io/os': 'linux' });
    expect(named(pinned, 'Deployment').get('r-assets')!.spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(named(pinned, 'Deployment').get('r-spaces')!.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('LoadBalancer: the Service <release>-spaces-media, one UDP port per ICE port to the same port of the pod, the addresses announced', () => {
    const objects = renderWith(
      '--set',
      `${MEDIA}.expose=LoadBalancer`,
      '--set',
      `${MEDIA}.icePorts=40000-40019`,
      '--set',
      `${MEDIA}.addresses={203.0.113.7,2001:db8::7}`,
      '--set',
      `${MEDIA}.annotations.service\\.beta\\.kubernetes\\.io/aws-load-balancer-type=nlb`,
    );
    expect(iceEnv(objects)).toEqual({ SPACES_ICE_PORTS: '40000-40019', SPACES_ICE_ADDRESSES: '203.0.113.7,2001:db8::7' });
    expect(udpPorts(objects)).toEqual(icePorts(40000, 40019));
    expect(spacesPod(objects).hostNetwork).toBeUndefined();
    const service = named(objects, 'Service').get('r-spaces-media') as Obj & { metadata: { annotations?: Record<string, string> } };
    expect(service.metadata.annotations).toEqual({ 'service.beta.kubernetes.io/aws-load-balancer-type': 'nlb' });
    expect(service.spec).toEqual({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Cluster',
      selector: spacesSelector,
      ports: servicePorts(40000, 40019),
    });
    expect(spacesPolicy(objects)[1].ports).toContainEqual({ port: 40000, endPort: 40019, protocol: 'UDP' });
    // the ICE ports are open to everyone: no rule of the compositors' own
    expect(spacesPolicy(objects)).toHaveLength(2);
  });

  it('NodePort: each ICE port its own nodePort (everything-values.yaml)', () => {
    const everything = renderEverything();
    expect(iceEnv(everything)).toEqual({ SPACES_ICE_PORTS: '32000-32019', SPACES_ICE_ADDRESSES: '203.0.113.10,2001:db8::10' });
    expect(udpPorts(everything)).toEqual(icePorts(32000, 32019));
    const service = named(everything, 'Service').get('r-spaces-media')!;
    expect(service.spec).toEqual({
      type: 'NodePort',
      externalTrafficPolicy: 'Local',
      selector: spacesSelector,
      ports: servicePorts(32000, 32019, { nodePorts: true }),
    });
    expect(spacesPod(everything).hostNetwork).toBeUndefined();
  });

  it.each([
    [
      'more than 200 ports',
      [`${MEDIA}.expose=hostNetwork`, `${MEDIA}.icePorts=40000-40200`],
      'services.spaces.media.icePorts 40000-40200 is 201 ports, at most 200: the pod and the media Service list each port (Kubernetes has no port ranges)',
    ],
    [
      'NodePort outside 30000-32767',
      [`${MEDIA}.expose=NodePort`, `${MEDIA}.icePorts=32700-32799`, `${MEDIA}.addresses={203.0.113.7}`],
      "services.spaces.media.icePorts 32700-32799 must lie within 30000-32767 with expose NodePort: each port is its own nodePort (ICE announces the port the SFU binds), and nodePorts come from Kubernetes' NodePort range",
    ],
    [
      'NodePort with the default range',
      [`${MEDIA}.expose=NodePort`, `${MEDIA}.addresses={203.0.113.7}`],
      "services.spaces.media.icePorts 40000-40099 must lie within 30000-32767 with expose NodePort: each port is its own nodePort (ICE announces the port the SFU binds), and nodePorts come from Kubernetes' NodePort range",
    ],
    [
      'LoadBalancer without addresses',
      [`${MEDIA}.expose=LoadBalancer`],
      'services.spaces.media.addresses is required with expose LoadBalancer: the IP address(es) participants reach the load balancer at, which the SFU announces as ICE candidates (it cannot know them itself)',
    ],
    [
      'NodePort without addresses',
      [`${MEDIA}.expose=NodePort`, `${MEDIA}.icePorts=32000-32009`],
      'services.spaces.media.addresses is required with expose NodePort: the IP address(es) participants reach the node at, which the SFU announces as ICE candidates (it cannot know them itself)',
    ],
    [
      'a range upside down',
      [`${MEDIA}.expose=hostNetwork`, `${MEDIA}.icePorts=40010-40000`],
      'services.spaces.media.icePorts must be ports from 1024 to 65535, the first below the last (got 40010-40000)',
    ],
    [
      'privileged ports',
      [`${MEDIA}.expose=hostNetwork`, `${MEDIA}.icePorts=1000-1010`],
      'services.spaces.media.icePorts must be ports from 1024 to 65535, the first below the last (got 1000-1010)',
    ],
    [
      'a range over spaces’ own port',
      [`${MEDIA}.expose=hostNetwork`, `${MEDIA}.icePorts=8080-8090`],
      "services.spaces.media.icePorts 8080-8090 takes port 8085, spaces' realtime port",
    ],
    [
      'the ICE settings in extraEnv as well',
      [`${MEDIA}.expose=hostNetwork`, 'extraEnv[0].name=SPACES_ICE_PORTS', 'extraEnv[0].value=40000-40010'],
      'extraEnv sets SPACES_ICE_PORTS: with services.spaces.media.expose hostNetwork the chart sets it (services.spaces.media.icePorts, addresses)',
    ],
    ['media on another service', ['services.live.media.expose=hostNetwork'], 'services.live.media: only the spaces service has an SFU (services.spaces.media)'],
    [
      'an unknown way to expose it (values.schema.json)',
      [`${MEDIA}.expose=Ingress`],
      'services.spaces.media.expose: services.spaces.media.expose must be one of the following: "none", "hostNetwork", "LoadBalancer", "NodePort"',
    ],
    [
      'a host name for an address (values.schema.json)',
      [`${MEDIA}.expose=LoadBalancer`, `${MEDIA}.addresses={sfu.video.example}`],
      "services.spaces.media.addresses.0: Does not match format 'ipv4'",
    ],
  ])('refuses %s, saying why', (_label, sets, message) => {
    const r = template(
      'minimal-values.yaml',
      sets.flatMap((s) => ['--set', s]),
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(message);
  });
});
