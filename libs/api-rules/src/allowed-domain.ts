// RFC 1123 label: letters, digits and inner hyphens, 1 to 63 characters
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * Spec 2.7 allowed_domains entry: `*`, a hostname (one label such as `localhost` is enough), or
 * `*.` followed by a hostname; a wildcard anywhere else is refused. Case-insensitive, spelled out
 * (no `i` flag) because the pattern is also published in the OpenAPI document.
 */
export const ALLOWED_DOMAIN_PATTERN = new RegExp(`^(?:\\*|(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*)$`);
export const ALLOWED_DOMAIN_MAX_LENGTH = 253;

export function isAllowedDomain(value: string): boolean {
  return value.length <= ALLOWED_DOMAIN_MAX_LENGTH && ALLOWED_DOMAIN_PATTERN.test(value);
}
