const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
// the last label starts with a letter, so a host is never read as a (possibly invalid) IPv4 number
const NAME = `(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
// RFC 4291 text forms (as the classic exhaustive expression spells them), embedded IPv4 included; no zone ids
const IPV6 = [
  `(?:${H16}:){7}${H16}`,
  `(?:${H16}:){1,7}:`,
  `(?:${H16}:){1,6}:${H16}`,
  `(?:${H16}:){1,5}(?::${H16}){1,2}`,
  `(?:${H16}:){1,4}(?::${H16}){1,3}`,
  `(?:${H16}:){1,3}(?::${H16}){1,4}`,
  `(?:${H16}:){1,2}(?::${H16}){1,5}`,
  `${H16}:(?::${H16}){1,6}`,
  `:(?:(?::${H16}){1,7}|:)`,
  `::(?:[Ff]{4}(?::0{1,4})?:)?${IPV4}`,
  `(?:${H16}:){1,4}:${IPV4}`,
].join('|');
const PORT = '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})';

/**
 * The URLs the API takes (inputs, slate images, simulcast targets), as one regular expression that
 * is also published in the OpenAPI document: a scheme from `schemes`, a host name, a dotted IPv4
 * address or a bracketed IPv6 one, an optional port, then a path, query or fragment without white
 * space. Anything it matches is a valid WHATWG URL. (`user:password@` is not taken.)
 */
export function urlPattern(schemes: readonly string[]): RegExp {
  return new RegExp(`^(?:${schemes.join('|')})://(?:${NAME}|${IPV4}|\\[(?:${IPV6})\\])(?::${PORT})?(?:[/?#][^\\s\\u0000]*)?$`);
}

export const HTTP_URL_PATTERN = urlPattern(['http', 'https']);

/**
 * A direct upload's cors_origin: `*`, or a browser origin (http or https, host, optional port, an
 * optional trailing slash), in any letter case; the uploads service keeps its normalized form
 * (`new URL(origin).origin`). Empty means none.
 */
export const CORS_ORIGIN_PATTERN = new RegExp(`^(?:\\*|[Hh][Tt][Tt][Pp][Ss]?://(?:${NAME}|${IPV4})(?::${PORT})?/?)?$`);
export const RTMP_URL_PATTERN = urlPattern(['rtmp', 'rtmps']);
