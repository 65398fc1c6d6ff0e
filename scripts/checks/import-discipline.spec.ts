import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|require\(|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

/** Services depend on libs, never on each other; libs never on services; libs by entry point only. */
describe('import discipline', () => {
  const services = fs.readdirSync(path.join(ROOT, 'services')).filter((d) => fs.statSync(path.join(ROOT, 'services', d)).isDirectory());

  it.each(services)('service %s imports no other service', (service) => {
    const offenders = sourceFiles(path.join(ROOT, 'services', service, 'src')).flatMap((file) =>
      imports(file)
        .filter((spec) => {
          if (spec.startsWith('@platform/svc-')) return true;
          if (!spec.startsWith('.')) return false;
          const target = path.resolve(path.dirname(file), spec);
          return !target.startsWith(path.join(ROOT, 'services', service) + path.sep);
        })
        .map((spec) => `${path.relative(ROOT, file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('libs import neither services nor a lib by a deep path', () => {
    const offenders = sourceFiles(path.join(ROOT, 'libs')).flatMap((file) =>
      imports(file)
        .filter((spec) => spec.startsWith('@platform/svc-') || /^@platform\/[^/]+\/.+/.test(spec) || spec.includes('/services/'))
        .map((spec) => `${path.relative(ROOT, file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
