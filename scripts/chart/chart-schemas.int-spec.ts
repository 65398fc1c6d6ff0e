import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * The chart against Kubernetes' own schemas, offline: `helm lint --strict` and `helm template` of every
 * values set in charts/video-platform/ci (the chart-testing convention), each rendered manifest checked by
 * kubeconform in strict mode (unknown fields are errors) against the JSON schemas of Kubernetes 1.36
 * (scripts/infra/k8s-schemas.sh: the kubernetes-validate wheel from PyPI).
 */
const ROOT = path.resolve(__dirname, '../..');
const CHART = path.join(ROOT, 'charts/video-platform');
const VALUES = fs.readdirSync(path.join(CHART, 'ci')).filter((f) => f.endsWith('-values.yaml'));
const KUBERNETES_VERSION = '1.36.0';

interface KubeconformReport {
  resources: Array<{ kind: string; name: string; status: string; msg: string }>;
  summary: { valid: number; invalid: number; errors: number; skipped: number };
}

jest.setTimeout(300_000);

describe('the chart against Kubernetes schemas (helm lint, kubeconform)', () => {
  let helm: string;
  let kubeconform: string;
  let schemas: string;
  let dir: string;
  const tool = (script: string) => execFileSync('bash', [path.join(ROOT, 'scripts/infra', script)], { encoding: 'utf8' }).trim();

  beforeAll(() => {
    [helm, kubeconform, schemas] = [tool('helm.sh'), tool('kubeconform.sh'), tool('k8s-schemas.sh')];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-schemas-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const validate = (file: string): KubeconformReport => {
    const location = `${schemas}/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
    // the prometheus-operator's ServiceMonitor and KEDA's ScaledObject are CRDs: no schema of Kubernetes' own (their shapes are tested)
    const args = ['-strict', '-summary', '-verbose', '-output', 'json', '-skip', 'ServiceMonitor,ScaledObject', '-kubernetes-version', KUBERNETES_VERSION];
    const r = spawnSync(kubeconform, [...args, '-schema-location', location, file], { encoding: 'utf8' });
    return JSON.parse(r.stdout) as KubeconformReport;
  };
  const render = (values: string) => {
    const r = spawnSync(helm, ['template', 'release', CHART, '-f', path.join(CHART, 'ci', values)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`helm template -f ${values}: ${r.stderr}`);
    return r.stdout;
  };

  it('has values sets for minimal production, everything on, and an existing Secret', () => {
    expect(VALUES.sort()).toEqual(['everything-values.yaml', 'existing-secret-values.yaml', 'minimal-values.yaml']);
  });

  it.each(VALUES)('%s: helm lint --strict is clean', (values) => {
    const r = spawnSync(helm, ['lint', '--strict', CHART, '-f', path.join(CHART, 'ci', values)], { encoding: 'utf8' });
    expect({ status: r.status, out: r.stdout }).toEqual({ status: 0, out: expect.stringContaining('1 chart(s) linted, 0 chart(s) failed') });
    expect(r.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
  });

  it.each(VALUES)('%s: every rendered object is valid against the Kubernetes schemas (strict)', (values) => {
    const file = path.join(dir, `${values}.rendered.yaml`);
    fs.writeFileSync(file, render(values));
    const report = validate(file);
    const documents = parseAllDocuments(fs.readFileSync(file, 'utf8')).filter((d) => d.contents !== null);
    const monitors = documents.filter((d) => ['ServiceMonitor', 'ScaledObject'].includes((d.toJS() as { kind: string }).kind)).length;
    expect(report.summary).toEqual({ valid: documents.length - monitors, invalid: 0, errors: 0, skipped: monitors });
    expect(
      report.resources.filter((r) => r.status !== 'statusValid' && !(['ServiceMonitor', 'ScaledObject'].includes(r.kind) && r.status === 'statusSkipped')),
    ).toEqual([]);
  });

  // the spaces SFU's media the ci/ values sets leave out (everything-values.yaml: NodePort)
  it.each([
    ['hostNetwork', ['services.spaces.media.expose=hostNetwork', 'services.spaces.media.addresses={198.51.100.4}', 'services.spaces.nodeSelector.media=sfu']],
    ['LoadBalancer', ['services.spaces.media.expose=LoadBalancer', 'services.spaces.media.addresses={203.0.113.7}', 'services.spaces.media.annotations.a=b']],
  ])('everything-values.yaml with the spaces media on %s: every rendered object is valid (strict)', (mode, sets) => {
    const file = path.join(dir, `media-${mode}.rendered.yaml`);
    const r = spawnSync(helm, ['template', 'release', CHART, '-f', path.join(CHART, 'ci', 'everything-values.yaml'), ...sets.flatMap((v) => ['--set', v])], {
      encoding: 'utf8',
    });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    fs.writeFileSync(file, r.stdout);
    const report = validate(file);
    expect(report.summary).toMatchObject({ invalid: 0, errors: 0 });
    expect(report.resources.filter((o) => !['statusValid', 'statusSkipped'].includes(o.status))).toEqual([]);
  });

  it('with an existing Secret, renders no Secret and no credential in a ConfigMap', () => {
    const objects = parseAllDocuments(render('existing-secret-values.yaml')).map((d) => d.toJS() as { kind: string; data?: Record<string, string> } | null);
    expect(objects.filter((o) => o?.kind === 'Secret')).toEqual([]);
    const configKeys = objects.filter((o) => o?.kind === 'ConfigMap').flatMap((o) => Object.keys(o!.data ?? {}));
    expect(configKeys.filter((k) => /DATABASE_URL|SECRET|PASSWORD|ACCESS_KEY/.test(k))).toEqual([]);
  });

  it('serves Prometheus metrics from every pod, scraped by a ServiceMonitor when asked', () => {
    type Obj = { kind: string; metadata: { name: string; labels?: Record<string, string> }; spec: any };
    const objects = parseAllDocuments(render('everything-values.yaml')).map((d) => d.toJS() as Obj);
    const deployments = objects.filter((o) => o.kind === 'Deployment');
    expect(deployments.length).toBe(10);
    for (const d of deployments) {
      const [container] = d.spec.template.spec.containers;
      expect(container.ports).toContainEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
      expect(container.env).toContainEqual({ name: 'METRICS_PORT', value: '9464' });
    }
    // every service's own Service; the spaces SFU's media Service carries only its UDP ICE ports
    const services = objects.filter((o) => o.kind === 'Service' && o.metadata.name !== 'release-spaces-media');
    expect(services.length).toBe(10);
    for (const s of services) expect(s.spec.ports).toContainEqual({ name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' });
    const media = objects.find((o) => o.metadata.name === 'release-spaces-media')!;
    expect((media.spec.ports as Array<{ name: string }>).map((p) => p.name)).not.toContain('metrics');
    const [monitor] = objects.filter((o) => o.kind === 'ServiceMonitor');
    expect(monitor.metadata.labels).toMatchObject({ release: 'prometheus', 'app.kubernetes.io/instance': 'release' });
    expect(monitor.spec).toEqual({
      selector: { matchLabels: { 'app.kubernetes.io/instance': 'release' } },
      endpoints: [{ port: 'metrics', path: '/metrics', interval: '30s' }],
    });
    expect(parseAllDocuments(render('minimal-values.yaml')).some((d) => (d.toJS() as Obj).kind === 'ServiceMonitor')).toBe(false);
  });

  it('catches what the schemas forbid: a misspelt field, a wrong type (the check can fail)', () => {
    const file = path.join(dir, 'bad.yaml');
    fs.writeFileSync(
      file,
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: { name: bad }',
        'spec:',
        '  replica: 2',
        '  selector: { matchLabels: { app: bad } }',
        '  template:',
        '    metadata: { labels: { app: bad } }',
        '    spec: { containers: [{ name: c, image: i, ports: [{ containerPort: "http" }] }] }',
        '',
      ].join('\n'),
    );
    const report = validate(file);
    expect(report.summary).toMatchObject({ valid: 0, invalid: 1 });
    expect(report.resources[0].msg).toMatch(/replica|containerPort/);
  });
});
