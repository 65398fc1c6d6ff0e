import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { envSchema, SERVICES } from '@platform/config';
// Not part of the lib's public entry point; the test only reads the variable names.

/**
 * The Helm chart, skaffold.yaml and the Dockerfile agree with each other and with the code:
 * service names, gRPC ports, environment variable names (checked against @platform/config's
 * schema) and probes. Renders with a real helm (built by scripts/infra/helm.sh on first use).
 */
const ROOT = path.resolve(__dirname, '../..');
const CHART = path.join(ROOT, 'charts/video-platform');
const S3 = ['--set', 'config.s3.endpoint=http://minio:9000', '--set', 'config.s3.accessKey=AK', '--set', 'config.s3.secretKey=SK'];
const REQUIRED = ['--set', 'config.databaseUrl=postgres://x@db/p', '--set', 'config.kafkaBrokers=k:9092', ...S3];
const SERVICE_NAMES = ['gateway', ...SERVICES.map((s) => s.name)];

interface EnvVar {
  name: string;
  value?: string;
}
interface Probe {
  grpc?: { port: number };
  httpGet?: { path: string; port: number | string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env: EnvVar[];
  envFrom: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports: { name: string; containerPort: number }[];
  startupProbe: Probe;
  readinessProbe: Probe;
  livenessProbe: Probe;
}
interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: {
    selector?: Record<string, string> & { matchLabels?: Record<string, string> };
    ports?: { name: string; port: number; targetPort: string }[];
    template?: { metadata: { labels: Record<string, string> }; spec: { containers: Container[] } };
  };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

let helm: string;

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(helm, args, { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function render(...extra: string[]): K8sObject[] {
  const r = run(['template', 't', CHART, ...REQUIRED, ...extra]);
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr}`);
  return parseAllDocuments(r.stdout)
    .map((d) => d.toJSON() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const byName = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};
const container = (deployment: K8sObject) => deployment.spec!.template!.spec.containers[0];

beforeAll(() => {
  helm = execFileSync('bash', [path.join(ROOT, 'scripts/infra/helm.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}, 10 * 60_000);

describe('charts/video-platform', () => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = render();
  });

  it('passes helm lint', () => {
    const r = run(['lint', CHART, ...REQUIRED]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(r.status).toBe(0);
  });

  it('renders exactly one Deployment and one Service per service, named <release>-<service>', () => {
    const expected = SERVICE_NAMES.map((n) => `t-${n}`).sort();
    expect(
      ofKind(objects, 'Deployment')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(expected);
    expect(
      ofKind(objects, 'Service')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(expected);
    expect(expected).toHaveLength(10);
  });

  it.each(SERVICE_NAMES)('%s: the container runs services/<name>/dist/main.js and the Service selects its pods', (name) => {
    const deployment = byName(objects, 'Deployment', `t-${name}`);
    const c = container(deployment);
    expect([...(c.command ?? []), ...(c.args ?? [])]).toEqual(['node', `services/${name}/dist/main.js`]);
    expect(c.image).toBe('video-platform:0.1.0');

    const podLabels = deployment.spec!.template!.metadata.labels;
    const selector = byName(objects, 'Service', `t-${name}`).spec!.selector!;
    expect(selector['app.kubernetes.io/component']).toBe(name);
    for (const [k, v] of Object.entries(selector)) expect(podLabels[k]).toBe(v);
    expect(deployment.spec!.selector!.matchLabels).toEqual(selector);
  });

  it.each(SERVICES.map((s) => [s.name, s.grpcPort] as const))(
    '%s: Service exposes gRPC port %i and the container is probed with grpc.health.v1 on it',
    (name, port) => {
      const service = byName(objects, 'Service', `t-${name}`);
      expect(service.spec!.ports).toContainEqual(expect.objectContaining({ name: 'grpc', port, targetPort: 'grpc' }));
      const c = container(byName(objects, 'Deployment', `t-${name}`));
      expect(c.ports).toContainEqual({ name: 'grpc', containerPort: port, protocol: 'TCP' });
      for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) {
        expect(probe.grpc).toEqual({ port });
        expect(probe.httpGet).toBeUndefined();
      }
    },
  );

  it('gateway: Service exposes http 8080 and the container is probed with GET /healthz', () => {
    expect(byName(objects, 'Service', 't-gateway').spec!.ports).toEqual([
      { name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP' },
      { name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' },
    ]);
    const c = container(byName(objects, 'Deployment', 't-gateway'));
    for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) {
      expect(probe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(probe.grpc).toBeUndefined();
    }
  });

  it('playback-auth exposes stream 8081 and image 8083, uploads upload 8082 and live rtmp 1935 (TCP) and srt 6001 (UDP), matching STREAM_PORT, IMAGE_PORT, UPLOAD_PORT, RTMP_PORT and SRT_PORT', () => {
    expect(byName(objects, 'Service', 't-playback-auth').spec!.ports).toContainEqual(
      expect.objectContaining({ name: 'stream', port: 8081, targetPort: 'stream' }),
    );
    expect(byName(objects, 'Service', 't-playback-auth').spec!.ports).toContainEqual(
      expect.objectContaining({ name: 'image', port: 8083, targetPort: 'image' }),
    );
    expect(container(byName(objects, 'Deployment', 't-playback-auth')).ports).toContainEqual(expect.objectContaining({ name: 'image', containerPort: 8083 }));
    expect(byName(objects, 'Service', 't-uploads').spec!.ports).toContainEqual(expect.objectContaining({ name: 'upload', port: 8082, targetPort: 'upload' }));
    expect(byName(objects, 'Service', 't-live').spec!.ports).toContainEqual(expect.objectContaining({ name: 'rtmp', port: 1935, targetPort: 'rtmp' }));
    expect(byName(objects, 'Service', 't-live').spec!.ports).toContainEqual({ name: 'srt', port: 6001, targetPort: 'srt', protocol: 'UDP' });
    expect(container(byName(objects, 'Deployment', 't-live')).ports).toContainEqual({ name: 'srt', containerPort: 6001, protocol: 'UDP' });
    for (const d of ofKind(objects, 'Deployment')) {
      const env = Object.fromEntries(container(d).env.map((e) => [e.name, e.value]));
      expect([env.API_PORT, env.STREAM_PORT, env.IMAGE_PORT, env.RTMP_PORT, env.UPLOAD_PORT, env.SRT_PORT]).toEqual([
        '8080',
        '8081',
        '8083',
        '1935',
        '8082',
        '6001',
      ]);
    }
  });

  it('analytics exposes the beacon collector 8084, matching COLLECTOR_PORT on every pod', () => {
    expect(byName(objects, 'Service', 't-analytics').spec!.ports).toContainEqual(
      expect.objectContaining({ name: 'collector', port: 8084, targetPort: 'collector' }),
    );
    expect(container(byName(objects, 'Deployment', 't-analytics')).ports).toContainEqual(expect.objectContaining({ name: 'collector', containerPort: 8084 }));
    for (const d of ofKind(objects, 'Deployment')) expect(container(d).env).toContainEqual({ name: 'COLLECTOR_PORT', value: '8084' });
  });

  it.each(SERVICE_NAMES)('%s: production-mode env points every *_GRPC_URL at the matching Service name and port', (name) => {
    const c = container(byName(objects, 'Deployment', `t-${name}`));
    const env = Object.fromEntries(c.env.map((e) => [e.name, e.value]));
    expect(env.EMBEDDED).toBe('false');
    expect(env.GRPC_BIND_HOST).toBe('0.0.0.0');
    for (const s of SERVICES) {
      const [host, port] = (env[`${s.envPrefix}_GRPC_URL`] ?? '').split(':');
      const target = byName(objects, 'Service', host);
      expect(target.spec!.selector!['app.kubernetes.io/component']).toBe(s.name);
      expect(target.spec!.ports).toContainEqual(expect.objectContaining({ name: 'grpc', port: Number(port) }));
    }
    expect(c.envFrom).toEqual([{ configMapRef: { name: 't-config' } }, { secretRef: { name: 't-secrets' } }]);
  });

  it('sets only variables that @platform/config knows', () => {
    const known = new Set(Object.keys(envSchema.shape));
    const full = render(
      '--set',
      'config.clickhouseUrl=http://ch:8123',
      '--set',
      'config.accessToken.id=tid',
      '--set',
      'config.accessToken.secret=tsecret',
      '--set',
      'config.webhook.url=https://hooks.example.com/x',
      '--set',
      'config.webhook.secret=whsecret',
      '--set',
      'config.uploads.baseUrl=https://upload.video.example',
      '--set',
      'config.playback.streamBaseUrl=https://stream.video.example',
      '--set',
      'config.images.baseUrl=https://image.video.example',
    );
    const names = [
      ...ofKind(full, 'Deployment').flatMap((d) => container(d).env.map((e) => e.name)),
      ...Object.keys(byName(full, 'ConfigMap', 't-config').data ?? {}),
      ...Object.keys(byName(full, 'Secret', 't-secrets').stringData ?? {}),
    ];
    expect(names.filter((n) => !known.has(n))).toEqual([]);
  });

  it('puts credentials in the Secret and nothing secret in the ConfigMap', () => {
    const full = render(
      '--set',
      'config.playback.grantSecret=grantkey',
      '--set',
      'config.clickhouseUrl=http://u:chpass@ch:8123',
      '--set',
      'config.accessToken.id=tid',
      '--set',
      'config.accessToken.secret=tsecret',
      '--set',
      'config.webhook.url=https://hooks.example.com/x',
      '--set',
      'config.webhook.secret=whsecret',
      '--set',
      'config.uploads.baseUrl=https://upload.video.example',
      '--set',
      'config.playback.streamBaseUrl=https://stream.video.example',
      '--set',
      'config.images.baseUrl=https://image.video.example',
    );
    expect(byName(full, 'Secret', 't-secrets').stringData).toEqual({
      DATABASE_URL: 'postgres://x@db/p',
      S3_ACCESS_KEY: 'AK',
      S3_SECRET_KEY: 'SK',
      CLICKHOUSE_URL: 'http://u:chpass@ch:8123',
      ACCESS_TOKEN_SECRET: 'tsecret',
      WEBHOOK_SECRET: 'whsecret',
      PLAYBACK_GRANT_SECRET: 'grantkey',
    });
    expect(byName(full, 'ConfigMap', 't-config').data).toEqual({
      KAFKA_BROKERS: 'k:9092',
      LOG_LEVEL: 'log',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'video-platform',
      S3_REGION: 'us-east-1',
      ACCESS_TOKEN_ID: 'tid',
      WEBHOOK_URL: 'https://hooks.example.com/x',
      UPLOAD_BASE_URL: 'https://upload.video.example',
      STREAM_BASE_URL: 'https://stream.video.example',
      IMAGE_BASE_URL: 'https://image.video.example',
      IMAGE_RENDER_CONCURRENCY: '2',
      PLAYBACK_GRANT_SECONDS: '21600',
      MASTER_ACCESS_SECONDS: '86400',
      TRANSCODER_CONCURRENCY: '1',
      TRANSCODER_INGEST_CONCURRENCY: '4',
      TRANSCODER_TASK_CONCURRENCY: '2',
      TRANSCODER_LEASE_SECONDS: '30',
      TRANSCODER_MAX_ATTEMPTS: '3',
      INPUT_MAX_BYTES: '53687091200',
      INPUT_DOWNLOAD_TIMEOUT_SECONDS: '3600',
      INPUT_DOWNLOAD_IDLE_SECONDS: '60',
      TEST_ASSET_TTL_SECONDS: '86400',
      OUTBOUND_ALLOW: 'public',
    });
    const deployments = JSON.stringify(ofKind(full, 'Deployment'));
    for (const secret of ['postgres://x@db/p', 'SK', 'chpass', 'tsecret', 'whsecret', 'grantkey']) expect(deployments).not.toContain(`"${secret}"`);
  });

  it('generates a grant key shared by every playback-auth replica when none is given', () => {
    const key = byName(objects, 'Secret', 't-secrets').stringData!.PLAYBACK_GRANT_SECRET;
    expect(key).toMatch(/^[A-Za-z0-9]{48}$/);
    const scaled = render('--set', 'services.playback-auth.replicas=3');
    const d = byName(scaled, 'Deployment', 't-playback-auth') as K8sObject & { spec: { replicas: number } };
    expect(d.spec.replicas).toBe(3);
    expect(container(d).envFrom).toContainEqual({ secretRef: { name: 't-secrets' } });
  });

  it('uses an existing Secret instead of creating one', () => {
    const r = run([
      'template',
      't',
      CHART,
      '--set',
      'config.kafkaBrokers=k:9092',
      '--set',
      'config.existingSecret=mine',
      '--set',
      'config.s3.endpoint=http://minio:9000',
    ]);
    expect(r.status).toBe(0);
    const objs = parseAllDocuments(r.stdout)
      .map((d) => d.toJSON() as K8sObject)
      .filter(Boolean);
    expect(ofKind(objs, 'Secret')).toEqual([]);
    for (const d of ofKind(objs, 'Deployment')) expect(container(d).envFrom).toContainEqual({ secretRef: { name: 'mine' } });
  });

  it.each([
    ['no databaseUrl', ['--set', 'config.kafkaBrokers=k:9092', ...S3], /config\.databaseUrl is required/],
    ['no kafkaBrokers', ['--set', 'config.databaseUrl=postgres://x@db/p', ...S3], /config\.kafkaBrokers is required/],
    ['no S3 endpoint', ['--set', 'config.databaseUrl=postgres://x@db/p', '--set', 'config.kafkaBrokers=k:9092'], /config\.s3\.endpoint is required/],
    [
      'a token id without its secret',
      [...REQUIRED, '--set', 'config.accessToken.id=only-id'],
      /accessToken\.id and config\.accessToken\.secret must be set together/,
    ],
    [
      'an S3 endpoint without keys',
      ['--set', 'config.databaseUrl=postgres://x@db/p', '--set', 'config.kafkaBrokers=k:9092', '--set', 'config.s3.endpoint=http://minio:9000'],
      /s3\.accessKey and config\.s3\.secretKey are required/,
    ],
  ])('refuses to render %s (the services would refuse to start)', (_label, args, message) => {
    const r = run(['template', 't', CHART, ...args]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });

  it('honours a per-service image override and keeps the default for the others', () => {
    const objs = render('--set', 'services.gateway.image=foo:1', '--set', 'image.repository=reg/vp', '--set', 'image.tag=2');
    expect(container(byName(objs, 'Deployment', 't-gateway')).image).toBe('foo:1');
    expect(container(byName(objs, 'Deployment', 't-assets')).image).toBe('reg/vp:2');
  });
});

describe('charts/video-platform: Grafana dashboards and datasource', () => {
  const DASHBOARDS = path.join(CHART, 'dashboards');
  const files = fs.readdirSync(DASHBOARDS).filter((f) => f.endsWith('.json'));
  const grafanaObjects = (objects: K8sObject[]) => ofKind(objects, 'ConfigMap').filter((o) => o.metadata.name.includes('grafana'));

  it('renders no Grafana ConfigMap by default', () => {
    expect(grafanaObjects(render())).toEqual([]);
  });

  it('grafana.dashboards.enabled: one ConfigMap with every dashboard as valid JSON, labelled for the sidecar, and a provider file', () => {
    const objs = render('--set', 'grafana.dashboards.enabled=true', '--set-string', 'grafana.dashboards.annotations.grafana_folder=Video platform');
    expect(grafanaObjects(objs).map((o) => o.metadata.name)).toEqual(['t-grafana-dashboards', 't-grafana-dashboard-provider']);
    const dashboards = byName(objs, 'ConfigMap', 't-grafana-dashboards');
    expect(dashboards.metadata.labels).toMatchObject({ grafana_dashboard: '1', 'app.kubernetes.io/instance': 't' });
    expect(dashboards.metadata.annotations).toEqual({ grafana_folder: 'Video platform' });
    expect(files.sort()).toEqual(['delivery-usage.json', 'live.json', 'overview.json', 'quality-of-experience.json']);
    expect(Object.keys(dashboards.data!).sort()).toEqual(files);
    for (const file of files) {
      const shipped = JSON.parse(dashboards.data![file]) as { uid: string; panels: unknown[] };
      expect(shipped).toEqual(JSON.parse(fs.readFileSync(path.join(DASHBOARDS, file), 'utf8')));
      expect(shipped.panels.length).toBeGreaterThan(0);
    }
    const provider = parse(byName(objs, 'ConfigMap', 't-grafana-dashboard-provider').data!['video-platform-dashboards.yaml']) as unknown;
    expect(provider).toEqual({
      apiVersion: 1,
      providers: [
        {
          name: 'video-platform',
          type: 'file',
          folder: 'Video platform',
          disableDeletion: true,
          allowUiUpdates: false,
          options: { path: '/var/lib/grafana/dashboards/video-platform' },
        },
      ],
    });
  });

  it("grafana.datasource.enabled: the ClickHouse datasource over HTTP, the password from Grafana's environment, the uid the dashboards select", () => {
    const objs = render(
      '--set',
      'grafana.datasource.enabled=true',
      '--set',
      'grafana.datasource.host=clickhouse.db',
      '--set',
      'grafana.datasource.username=grafana',
    );
    expect(grafanaObjects(objs).map((o) => o.metadata.name)).toEqual(['t-grafana-datasource']);
    const cm = byName(objs, 'ConfigMap', 't-grafana-datasource');
    expect(cm.metadata.labels).toMatchObject({ grafana_datasource: '1' });
    const provisioning = parse(cm.data!['video-platform-clickhouse.yaml']) as unknown;
    expect(provisioning).toEqual({
      apiVersion: 1,
      datasources: [
        {
          name: 'ClickHouse (video platform)',
          uid: 'clickhouse',
          type: 'grafana-clickhouse-datasource',
          editable: false,
          jsonData: { host: 'clickhouse.db', port: 8123, protocol: 'http', secure: false, username: 'grafana', defaultDatabase: 'video_platform' },
          secureJsonData: { password: '${GRAFANA_CLICKHOUSE_PASSWORD}' },
        },
      ],
    });
    for (const file of files) {
      const dashboard = JSON.parse(fs.readFileSync(path.join(DASHBOARDS, file), 'utf8')) as {
        templating: { list: { name: string; current: { value: string } }[] };
      };
      expect(dashboard.templating.list.find((v) => v.name === 'ds')!.current.value).toBe('clickhouse');
    }
  });

  it('refuses a datasource without a host', () => {
    const r = run(['template', 't', CHART, ...REQUIRED, '--set', 'grafana.datasource.enabled=true']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/grafana\.datasource\.host is required/);
  });
});

describe('skaffold.yaml', () => {
  interface Skaffold {
    apiVersion: string;
    kind: string;
    build: { artifacts: { image: string; context: string; docker: { dockerfile: string; buildArgs: Record<string, string> } }[] };
    deploy: { helm: { releases: { name: string; chartPath: string; setValueTemplates: Record<string, string> }[] } };
  }
  const config = parse(fs.readFileSync(path.join(ROOT, 'skaffold.yaml'), 'utf8')) as Skaffold;

  it('builds one artifact per service from services/Dockerfile', () => {
    expect(config.apiVersion).toBe('skaffold/v4beta11');
    expect(config.kind).toBe('Config');
    expect(config.build.artifacts.map((a) => a.image).sort()).toEqual(SERVICE_NAMES.map((n) => `video-platform-${n}`).sort());
    for (const a of config.build.artifacts) {
      expect(a.context).toBe('.');
      expect(a.docker.dockerfile).toBe('services/Dockerfile');
      expect(`video-platform-${a.docker.buildArgs.SERVICE}`).toBe(a.image);
    }
    expect(fs.existsSync(path.join(ROOT, config.build.artifacts[0].docker.dockerfile))).toBe(true);
  });

  it('deploys the chart with each built image set on its own service', () => {
    const [release] = config.deploy.helm.releases;
    expect(release.name).toBe('video-platform');
    expect(path.resolve(ROOT, release.chartPath)).toBe(CHART);
    // Skaffold exposes each artifact as IMAGE_FULLY_QUALIFIED_<image name with - and / replaced by _>.
    expect(release.setValueTemplates).toEqual(
      Object.fromEntries(SERVICE_NAMES.map((n) => [`services.${n}.image`, `{{.IMAGE_FULLY_QUALIFIED_video_platform_${n.replace(/-/g, '_')}}}`])),
    );
    // What skaffold does at deploy time: --set every key to the built image, then each Deployment runs it.
    const sets = Object.keys(release.setValueTemplates).flatMap((key) => ['--set', `${key}=registry.local/${key.split('.')[1]}:abc`]);
    const objs = render(...sets);
    for (const n of SERVICE_NAMES) expect(container(byName(objs, 'Deployment', `t-${n}`)).image).toBe(`registry.local/${n}:abc`);
  });
});

describe('services/Dockerfile', () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'services/Dockerfile'), 'utf8');

  it('builds from node 20 and ships what the services load at run time', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(dockerfile).toMatch(/^ARG SERVICE\b/m);
    expect(dockerfile).toMatch(/exec node services\/\$\{SERVICE\}\/dist\/main\.js/);
    for (const dir of ['node_modules', 'libs', 'services', 'proto']) {
      expect(dockerfile).toMatch(new RegExp(`^COPY --from=build /app/${dir} `, 'm'));
    }
    expect(dockerfile).toMatch(/apt-get install[^\n]*\bffmpeg\b/);
  });

  it('is not sent node_modules, build output or local data', () => {
    const ignored = fs
      .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.cache', '.data']));
  });
});
