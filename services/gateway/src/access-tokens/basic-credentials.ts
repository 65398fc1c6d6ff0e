/** `Authorization: Basic base64(id:secret)` → its two halves, or undefined when absent or malformed. */
export function parseBasicAuth(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const id = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  return secret === '' ? undefined : { id, secret };
}
