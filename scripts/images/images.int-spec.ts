import Ajv from 'ajv';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { minimatch } from 'minimatch';
import { parse } from 'yaml';
import { applyPatches, JsonPatch } from './json-patch';
import { CAPTURE_WORKER_COMMAND, IMAGE_WORKDIR } from '../../libs/capture/src/kubernetes/capture-pod';

/**
 * What can be checked of the images without a container engine (none exists here): services/Dockerfile
 * against hadolint (from PyPI), the runtime stage's file list against the workspace's build output, the
 * build context that .dockerignore leaves, the packages the compiled services load against those
 * `npm prune --omit=dev` keeps, and skaffold.yaml (each profile applied) against skaffold's own schema.
 * Runs after `npm run build` (the integration project).
 */
const ROOT = path.resolve(__dirname, '../..');
const DOCKERFILE = path.join(ROOT, 'services/Dockerfile');
const tool = (script: string, ...args: string[]) => execFileSync('bash', [path.join(ROOT, 'scripts/infra', script), ...args], { encoding: 'utf8' }).trim();
const chartServices = Object.keys(
  (parse(fs.readFileSync(path.join(ROOT, 'charts/video-platform/values.yaml'), 'utf8')) as { services: object }).services,
).sort();

interface SkaffoldConfig {
  apiVersion: string;
  build: { artifacts: Array<{ image: string; docker: { dockerfile: string; buildArgs: { SERVICE: string } } }> };
  deploy: { helm: { releases: Array<{ chartPath: string; setValueTemplates: Record<string, string>; setValues?: Record<string, unknown> }> } };
  profiles: Array<{ name: string; patches: JsonPatch[] }>;
}
const skaffold = parse(fs.readFileSync(path.join(ROOT, 'skaffold.yaml'), 'utf8')) as SkaffoldConfig;

jest.setTimeout(180_000);

describe('services/Dockerfile', () => {
  let hadolint: string;
  beforeAll(() => (hadolint = tool('hadolint.sh')));
  const lint = (file: string) => {
    const r = spawnSync(hadolint, ['--no-color', '--format', 'json', '--failure-threshold', 'style', file], { encoding: 'utf8' });
    return {
      status: r.status,
      findings: (JSON.parse(r.stdout) as Array<{ code: string; line: number; message: string }>).map((f) => `${f.line} ${f.code} ${f.message}`),
    };
  };

  it('passes hadolint with no finding at any level', () => {
    expect(lint(DOCKERFILE)).toEqual({ status: 0, findings: [] });
  });

  it('hadolint flags a careless Dockerfile (so the check above can fail)', () => {
    const bad = path.join(fs.mkdtempSync('/tmp/dockerfile-'), 'Dockerfile');
    fs.writeFileSync(bad, 'FROM node:latest\nRUN cd /app && npm install\nUSER root\n');
    const { status, findings } = lint(bad);
    expect(status).toBe(1);
    expect(findings.map((f) => f.split(' ')[1]).sort()).toEqual(expect.arrayContaining(['DL3002', 'DL3003', 'DL3007']));
  });

  const runtimeStage = () => fs.readFileSync(DOCKERFILE, 'utf8').split(/^FROM .* AS runtime$/m)[1];

  it('copies into the runtime image only what the build produced, and each service the chart and skaffold run has its entry point', () => {
    const copied = [...runtimeStage().matchAll(/^COPY --from=build (.+) \S+$/gm)].flatMap((m) => m[1].split(' ')).map((p) => p.replace(/^\/app\//, ''));
    expect(copied.sort()).toEqual(['libs', 'node_modules', 'package-lock.json', 'package.json', 'proto', 'services']);
    for (const p of copied) expect({ path: p, exists: fs.existsSync(path.join(ROOT, p)) }).toEqual({ path: p, exists: true });
    const cmd = /^CMD \["sh", "-c", "exec node services\/\$\{SERVICE\}\/dist\/main\.js"\]$/m;
    expect(runtimeStage()).toMatch(cmd);
    const images = skaffold.build.artifacts.map((a) => a.docker.buildArgs.SERVICE).sort();
    expect(images).toEqual(chartServices);
    const missing = chartServices.filter((s) => !fs.existsSync(path.join(ROOT, 'services', s, 'dist/main.js')));
    expect(missing).toEqual([]);
  });

  it('has what a capture Pod runs: its working directory, tini, and the compiled worker where the Pod’s command looks', () => {
    const [tini, , node, worker] = CAPTURE_WORKER_COMMAND;
    expect(runtimeStage()).toMatch(new RegExp(`^WORKDIR ${IMAGE_WORKDIR}$`, 'm'));
    expect({ tini, node, installed: /apt-get install[^\n]* tini /.test(runtimeStage()) }).toEqual({ tini: '/usr/bin/tini', node: 'node', installed: true });
    // services/ of the build is copied to /app/services
    expect(runtimeStage()).toMatch(/^COPY --from=build \/app\/services \.\/services$/m);
    expect({ worker, built: fs.existsSync(path.join(ROOT, worker)) }).toEqual({ worker, built: true });
  });

  it('runs as a numeric non-root user (what runAsNonRoot can verify), with tini as PID 1', () => {
    expect(runtimeStage()).toMatch(/^USER 1000:1000$/m);
    expect(runtimeStage()).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
  });

  it('.dockerignore sends sources only: no dependencies, builds, caches or git, but everything the build needs', () => {
    const patterns = fs
      .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    // Docker excludes a path when it or one of its parent folders matches a pattern
    const excluded = (file: string) => {
      const parts = file.split('/');
      return parts.some((_, i) => patterns.some((p) => minimatch(parts.slice(0, i + 1).join('/'), p, { dot: true })));
    };
    const gone = [
      'node_modules/x/index.js',
      'libs/events/dist/index.js',
      'services/live/dist/main.js',
      'libs/a/node_modules/b.js',
      '.cache/kube/bin/etcd',
      '.git/HEAD',
      'x.tsbuildinfo',
    ];
    expect(gone.filter((f) => !excluded(f))).toEqual([]);
    const workspaces = ['libs', 'services']
      .flatMap((dir) => fs.readdirSync(path.join(ROOT, dir)).map((w) => `${dir}/${w}`))
      .filter((w) => fs.existsSync(path.join(ROOT, w, 'package.json')));
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'scripts/tsconfig.build.json',
      'proto/buf.yaml',
      'proto/assets',
      ...workspaces.map((w) => `${w}/package.json`),
    ];
    expect(needed.filter((f) => !fs.existsSync(path.join(ROOT, f)))).toEqual([]);
    needed.push(...workspaces.map((w) => `${w}/tsconfig.json`).filter((f) => fs.existsSync(path.join(ROOT, f))));
    expect(needed.filter(excluded)).toEqual([]);
  });

  it('every package the compiled services and libraries load is a production dependency (kept by npm prune --omit=dev)', () => {
    const { dependencies } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const loaded = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.js') && !/\.(int-)?spec\.js$|testing/.test(full)) {
          for (const m of fs.readFileSync(full, 'utf8').matchAll(/(?:require|import)\(["']([^"'./][^"']*)["']\)/g)) loaded.add(packageOf(m[1]));
        }
      }
    };
    for (const dir of ['libs', 'services']) {
      for (const w of fs.readdirSync(path.join(ROOT, dir))) {
        const dist = path.join(ROOT, dir, w, 'dist');
        if (fs.existsSync(dist) && w !== 'testing') walk(dist);
      }
    }
    const builtin = new Set(builtinModules);
    const external = [...loaded].filter((p) => !p.startsWith('node:') && !builtin.has(p) && !p.startsWith('@platform/'));
    expect(external.length).toBeGreaterThan(10);
    expect(external.filter((p) => !(p in dependencies)).sort()).toEqual([]);
  });
});

describe('skaffold.yaml', () => {
  let validate: (config: unknown) => string[];
  beforeAll(() => {
    const schema = JSON.parse(fs.readFileSync(tool('skaffold-schema.sh', skaffold.apiVersion.split('/')[1]), 'utf8')) as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    const check = ajv.compile(schema);
    validate = (config) => (check(config) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
  });

  it('is valid against skaffold’s own schema for its apiVersion', () => {
    expect(skaffold.apiVersion).toBe('skaffold/v4beta11');
    expect(validate(skaffold)).toEqual([]);
  });

  it.each(['dev', 'prod'])('with profile %s applied, is still valid against the schema', (name) => {
    const profile = skaffold.profiles.find((p) => p.name === name)!;
    expect(profile.patches.length).toBeGreaterThan(0);
    const { profiles: _, ...base } = skaffold;
    expect(validate(applyPatches(base, profile.patches))).toEqual([]);
  });

  it('the schema check fails on a misspelt field', () => {
    const bad = { ...skaffold, deploy: { helm: { releases: [{ ...skaffold.deploy.helm.releases[0], chartPth: 'x' }] } } };
    expect(validate(bad).length).toBeGreaterThan(0);
  });

  it('builds one image per chart service from services/Dockerfile, each wired to that service’s image value', () => {
    const artifacts = skaffold.build.artifacts;
    expect(artifacts.map((a) => a.image)).toEqual(artifacts.map((a) => `video-platform-${a.docker.buildArgs.SERVICE}`));
    expect(new Set(artifacts.map((a) => a.docker.dockerfile))).toEqual(new Set(['services/Dockerfile']));
    const templates = skaffold.deploy.helm.releases[0].setValueTemplates;
    const images = Object.entries(templates).filter(([k]) => k.endsWith('.image'));
    expect(Object.fromEntries(images)).toEqual(
      Object.fromEntries(artifacts.map((a) => [`services.${a.docker.buildArgs.SERVICE}.image`, `{{.IMAGE_FULLY_QUALIFIED_${a.image.replace(/[-/]/g, '_')}}}`])),
    );
  });

  it.each(['dev', 'prod'])('profile %s: the values it sets (shell variables filled in) render the chart', (name) => {
    const { profiles, ...base } = skaffold;
    const release = (applyPatches(base, profiles.find((p) => p.name === name)!.patches) as SkaffoldConfig).deploy.helm.releases[0];
    const shell: Record<string, string> = {
      DATABASE_URL: 'postgres://video:pw@postgres:5432/video',
      KAFKA_BROKERS: 'kafka:9092',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY: 'minio',
      S3_SECRET_KEY: 'minio-secret',
    };
    const sets = Object.entries(release.setValueTemplates).map(([k, v]) => {
      const filled = v.replace(
        /\{\{\.([A-Za-z0-9_]+)\}\}/g,
        (_, variable: string) => shell[variable] ?? (variable.startsWith('IMAGE_FULLY_QUALIFIED_') ? `registry.example/${variable}:1` : `<no ${variable}>`),
      );
      return `${k}=${filled}`;
    });
    const values = Object.entries(release.setValues ?? {}).map(([k, v]) => `${k}=${String(v)}`);
    expect([...sets, ...values].filter((s) => s.includes('<no '))).toEqual([]);
    const helm = tool('helm.sh');
    const r = spawnSync(helm, ['template', 'video', path.join(ROOT, release.chartPath), ...[...sets, ...values].flatMap((s) => ['--set', s])], {
      encoding: 'utf8',
    });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toContain('image: "registry.example/IMAGE_FULLY_QUALIFIED_video_platform_gateway:1"');
  });
});

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
