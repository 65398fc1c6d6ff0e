import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a download URL's `expires` and `signature` say about a request. */
export type UrlCheck = 'valid' | 'expired' | 'invalid';

/**
 * Expiring download URLs, as S3 presigned URLs: `<baseUrl><path>?expires=<epoch s>&signature=<hmac>`,
 * the signature an HMAC-SHA256 (base64url) of the path and the expiry, so neither can be changed.
 */
export class ExportUrlSigner {
  constructor(
    private readonly key: Buffer,
    private readonly baseUrl: string,
    private readonly lifetimeSeconds: number,
  ) {}

  /** The absolute URL of `path` (`/exports/views/…`), valid for the lifetime from `nowMs`. */
  sign(path: string, nowMs: number): string {
    const expires = Math.floor(nowMs / 1000) + this.lifetimeSeconds;
    return `${this.baseUrl}${path}?expires=${expires}&signature=${this.signature(path, expires)}`;
  }

  /** Checks the query values of a request for `path`: a bad or missing signature is `invalid` before anything else. */
  check(path: string, expires: string | undefined, signature: string | undefined, nowMs: number): UrlCheck {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.signature(path, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 > nowMs ? 'valid' : 'expired';
  }

  private signature(path: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${path}\n${expires}`).digest('base64url');
  }
}

/** The signing key: the configured secret, else the key file under DATA_DIR (see `secretKeyFromDataDir`). */
export function exportUrlKey(secret: string | undefined, keyFromDataDir: () => Buffer): Buffer {
  return secret ? Buffer.from(secret, 'utf8') : keyFromDataDir();
}
