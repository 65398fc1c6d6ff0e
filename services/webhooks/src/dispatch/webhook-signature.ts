import { createHmac } from 'node:crypto';

/**
 * The `mux-signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * The SDK refuses a `t` older than 300 s, so it is computed per attempt, never stored.
 */
export function muxSignature(secret: string, rawBody: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${rawBody}`, 'utf8').digest('hex');
  return `t=${t},v1=${v1}`;
}
