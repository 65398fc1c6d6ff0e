import { isAllowedDomain } from '@platform/api-rules';
import { DomainError } from '@platform/errors';

/** A playback restriction's referrer rule (spec 2.7), with domains as stored: lowercase, unique. */
export interface ReferrerRule {
  allowed_domains: readonly string[];
  allow_no_referrer: boolean;
}

export const MAX_ALLOWED_DOMAINS = 10;

/**
 * The allowed_domains to store: lowercased and de-duplicated, first occurrence first.
 * Throws INVALID_PARAMETERS naming every bad entry by its index in the request.
 */
export function normalizeAllowedDomains(domains: readonly string[], field = 'referrer.allowed_domains'): string[] {
  if (domains.length > MAX_ALLOWED_DOMAINS) {
    throw DomainError.invalid(`${field}: at most ${MAX_ALLOWED_DOMAINS} entries are allowed, got ${domains.length}`);
  }
  const problems: string[] = [];
  const normalized: string[] = [];
  domains.forEach((raw, i) => {
    const value = raw.toLowerCase();
    if (!isAllowedDomain(value)) problems.push(`${field}[${i}]: ${JSON.stringify(raw)} is not a valid domain`);
    else if (!normalized.includes(value)) normalized.push(value);
  });
  if (problems.length > 0) throw DomainError.invalid(...problems);
  return normalized;
}

/**
 * Whether a playback request with this Referer header may play (Mux semantics):
 * no Referer → `allow_no_referrer`; `[]` denies every domain; `*` allows any; a hostname
 * matches itself only; `*.example.com` matches subdomains at any depth but not
 * `example.com` itself. Ports, paths and a trailing dot of the Referer are ignored.
 */
export function referrerAllowed(rule: ReferrerRule, referer: string | undefined): boolean {
  if (referer === undefined || referer.trim() === '') return rule.allow_no_referrer;
  const host = hostOf(referer.trim());
  return rule.allowed_domains.some((pattern) => matches(pattern.toLowerCase(), host));
}

function hostOf(referer: string): string | undefined {
  try {
    const host = new URL(referer).hostname.toLowerCase().replace(/\.$/, '');
    return host === '' ? undefined : host;
  } catch {
    return undefined; // not a URL: it names no domain
  }
}

function matches(pattern: string, host: string | undefined): boolean {
  if (pattern === '*') return true;
  if (host === undefined) return false;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return host === pattern;
}
