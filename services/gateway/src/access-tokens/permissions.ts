/** What an access token may do (docs/decisions.md "Authentication"); write includes read. */
export const PERMISSIONS = ['video:read', 'video:write', 'data:read', 'data:write', 'system:read', 'system:write'] as const;

export type Permission = (typeof PERMISSIONS)[number];
export type Scope = 'video' | 'data' | 'system';
export type Access = 'read' | 'write';

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** `video:write,data:read` → permissions; throws naming every unknown entry. */
export function parsePermissions(list: string): Permission[] {
  const entries = list
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '');
  const unknown = entries.filter((p) => !isPermission(p));
  if (unknown.length > 0) throw new Error(`Unknown permission(s) ${unknown.join(', ')}; use ${PERMISSIONS.join(', ')}`);
  if (entries.length === 0) throw new Error(`At least one permission is needed: ${PERMISSIONS.join(', ')}`);
  return [...new Set(entries as Permission[])];
}

/**
 * The permission a request needs, from its method and route path: `/system/v1/**` and the
 * deprecated `/video/v1/signing-keys**` need system, other `/video/v1/**` video,
 * `/data/v1/**` data; GET and HEAD read, every other method write. Undefined: no API route.
 */
export function requiredPermission(method: string, path: string): Permission | undefined {
  const p = path.toLowerCase();
  const under = (prefix: string) => p === prefix || p.startsWith(`${prefix}/`);
  let scope: Scope | undefined;
  if (under('/system/v1') || under('/video/v1/signing-keys')) scope = 'system';
  else if (under('/video/v1')) scope = 'video';
  else if (under('/data/v1')) scope = 'data';
  if (!scope) return undefined;
  const access: Access = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  return `${scope}:${access}`;
}

export function grants(held: readonly string[], needed: Permission): boolean {
  if (held.includes(needed)) return true;
  const [scope, access] = needed.split(':');
  return access === 'read' && held.includes(`${scope}:write`);
}
