const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
// the last label starts with a letter, so a host is never read as a (possibly invalid) IPv4 number
const NAME = `(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const PORT = '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})';

/**
 * The URLs the API takes (inputs, slate images, simulcast targets), as one regular expression that
 * is also published in the OpenAPI document: a scheme from `schemes`, a host name or dotted IPv4
 * address, an optional port, then a path, query or fragment without whitespace. Anything it
 * matches is a valid WHATWG URL. (IPv6 literals and user:password@ are not taken.)
 */
export function urlPattern(schemes: readonly string[]): RegExp {
  return new RegExp(`^(?:${schemes.join('|')})://(?:${NAME}|${IPV4})(?::${PORT})?(?:[/?#][^\\s\\u0000]*)?$`);
}

export const HTTP_URL_PATTERN = urlPattern(['http', 'https']);

/**
 * A direct upload's cors_origin: `*`, or a browser origin (http or https, host, optional port, an
 * optional trailing slash), in any letter case; the uploads service keeps its normalized form
 * (`new URL(origin).origin`). Empty means none.
 */
export const CORS_ORIGIN_PATTERN = new RegExp(`^(?:\\*|[Hh][Tt][Tt][Pp][Ss]?://(?:${NAME}|${IPV4})(?::${PORT})?/?)?$`);
export const RTMP_URL_PATTERN = urlPattern(['rtmp', 'rtmps']);
