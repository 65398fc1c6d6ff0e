/** The JSON Patch (RFC 6902) operations skaffold profiles use here: add and replace, by JSON Pointer (RFC 6901). */
export interface JsonPatch {
  op: 'add' | 'replace';
  path: string;
  value: unknown;
}

type Container = Record<string, unknown> | unknown[];

/** A copy of `document` with `patches` applied in order; a path whose parent does not exist throws. */
export function applyPatches<T>(document: T, patches: JsonPatch[]): T {
  const result = structuredClone(document) as unknown as Container;
  for (const patch of patches) {
    if (patch.op !== 'add' && patch.op !== 'replace') throw new Error(`unsupported op ${String(patch.op)}`);
    const tokens = patch.path
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = tokens.pop();
    if (last === undefined) throw new Error('cannot patch the root');
    let parent: unknown = result;
    for (const token of tokens) {
      parent = (parent as Record<string, unknown>)?.[token];
      if (parent === null || typeof parent !== 'object') throw new Error(`${patch.path}: no ${token}`);
    }
    const target = parent as Container;
    if (Array.isArray(target)) {
      const index = last === '-' ? target.length : Number(last);
      if (patch.op === 'add') target.splice(index, 0, patch.value);
      else target[index] = patch.value;
    } else {
      if (patch.op === 'replace' && !(last in target)) throw new Error(`${patch.path}: nothing to replace`);
      target[last] = patch.value;
    }
  }
  return result as unknown as T;
}
