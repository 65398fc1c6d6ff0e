/**
 * CORS of the upload URL, from the upload's `cors_origin` (spec 2.6: required for browser use):
 * `*` allows any page, an origin allows that page only, none allows no browser page. UpChunk must
 * read the `Range` of a 308, so it is exposed.
 */
export function corsHeaders(corsOrigin: string | null, requestOrigin: string | undefined): Record<string, string> {
  if (!corsOrigin || !requestOrigin) return {};
  if (corsOrigin !== '*' && corsOrigin !== requestOrigin) return {};
  return {
    'access-control-allow-origin': corsOrigin === '*' ? '*' : requestOrigin,
    'access-control-expose-headers': 'Range',
    ...(corsOrigin === '*' ? {} : { vary: 'Origin' }),
  };
}

/** The answer to a preflight: PUT with the headers the page asks for (Content-Type, Content-Range, …). */
export function preflightHeaders(corsOrigin: string | null, requestOrigin: string | undefined, requestHeaders: string | undefined): Record<string, string> {
  const base = corsHeaders(corsOrigin, requestOrigin);
  if (!base['access-control-allow-origin']) return {};
  return {
    ...base,
    'access-control-allow-methods': 'PUT, OPTIONS',
    'access-control-allow-headers': requestHeaders && /^[A-Za-z0-9-, ]+$/.test(requestHeaders) ? requestHeaders : 'Content-Type, Content-Range',
    'access-control-max-age': '3600',
  };
}
