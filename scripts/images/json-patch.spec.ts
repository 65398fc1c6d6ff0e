import { applyPatches } from './json-patch';

describe('applyPatches (RFC 6902 add and replace)', () => {
  const doc = { build: { local: { push: false } }, releases: [{ name: 'a', set: { 'x.y': 1 } }] };

  it('adds and replaces members and array items by JSON Pointer, leaving the original alone', () => {
    const out = applyPatches(doc, [
      { op: 'add', path: '/build/tagPolicy', value: { gitCommit: {} } },
      { op: 'replace', path: '/build/local/push', value: true },
      { op: 'add', path: '/releases/0/set/a~1b', value: 2 },
      { op: 'add', path: '/releases/-', value: { name: 'b' } },
    ]);
    expect(out).toEqual({
      build: { local: { push: true }, tagPolicy: { gitCommit: {} } },
      releases: [{ name: 'a', set: { 'x.y': 1, 'a/b': 2 } }, { name: 'b' }],
    });
    expect(doc.build.local.push).toBe(false);
  });

  it('throws on a path whose parent is missing, and on replacing nothing', () => {
    expect(() => applyPatches(doc, [{ op: 'add', path: '/deploy/helm/x', value: 1 }])).toThrow('/deploy/helm/x: no deploy');
    expect(() => applyPatches(doc, [{ op: 'replace', path: '/build/nothing', value: 1 }])).toThrow('nothing to replace');
  });
});
