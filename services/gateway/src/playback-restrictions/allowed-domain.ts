// RFC 1123 label: letters, digits and inner hyphens, 1 to 63 characters
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function isHostname(value: string): boolean {
  return value.length > 0 && value.length <= 253 && value.split('.').every((label) => LABEL.test(label));
}

/**
 * Spec 2.7: `*`, a hostname (one label such as `localhost` is enough), or `*.` followed by
 * a hostname; a wildcard anywhere else is refused. Case-insensitive. The playback-auth
 * service checks the same rule again.
 */
export function isAllowedDomain(value: string): boolean {
  const v = value.toLowerCase();
  if (v === '*') return true;
  return isHostname(v.startsWith('*.') ? v.slice(2) : v);
}
