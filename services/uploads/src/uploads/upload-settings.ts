import { CORS_ORIGIN_PATTERN, MAX_URL_LENGTH } from '@platform/api-rules';
import { DomainError } from '@platform/errors';

export const TIMEOUT_MIN = 60;
export const TIMEOUT_MAX = 604_800;
export const TIMEOUT_DEFAULT = 3600;

/** Spec 2.6 / 8: seconds the URL is valid, 60 to 604800, default 3600. */
export function validTimeout(timeout: number | undefined): number {
  if (timeout === undefined) return TIMEOUT_DEFAULT;
  if (!Number.isInteger(timeout) || timeout < TIMEOUT_MIN || timeout > TIMEOUT_MAX) {
    throw DomainError.invalid(`timeout: must be an integer from ${TIMEOUT_MIN} to ${TIMEOUT_MAX} (seconds)`);
  }
  return timeout;
}

/**
 * `*`, or one browser origin (`https://app.example.com[:port]`, no path): what the upload host answers
 * CORS for, kept as the browser sends it in `Origin` (lowercase host, no default port, no slash).
 */
export function validCorsOrigin(origin: string | undefined): string | null {
  if (origin === undefined || origin === '') return null;
  if (origin === '*') return origin;
  if (origin.length > MAX_URL_LENGTH || !CORS_ORIGIN_PATTERN.test(origin)) {
    throw DomainError.invalid('cors_origin: must be "*" or an origin such as "https://app.example.com"');
  }
  return new URL(origin).origin;
}
