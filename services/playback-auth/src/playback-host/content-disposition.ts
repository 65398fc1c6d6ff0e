/** Characters no file name may hold, besides control characters. */
const UNSAFE = '"\\/:*?<>|';

/**
 * `Content-Disposition` of a downloadable file (RFC 6266). Without `?download=` the file is `inline`
 * under its own name (a player or the browser shows it); with it, an `attachment` (the browser saves
 * it) named as asked — `?download=` alone keeps the file's name — with the file's extension added when
 * the name lacks it. The name loses what no file name may hold (path separators, control characters,
 * quotes); `filename` carries an ASCII fallback, `filename*` the name itself (RFC 8187).
 */
export function contentDisposition(fileName: string, download: string | undefined, defaultType: 'inline' | 'attachment' = 'inline'): string {
  if (download === undefined) return `${defaultType}; filename="${fileName}"`;
  const ext = /\.[A-Za-z0-9]+$/.exec(fileName)?.[0] ?? '';
  const cleaned = [...download]
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f && !UNSAFE.includes(c))
    .join('')
    .trim()
    .slice(0, 200);
  const base = cleaned === '' || /^\.+$/.test(cleaned) ? fileName : cleaned;
  const name = ext && !base.toLowerCase().endsWith(ext.toLowerCase()) ? `${base}${ext}` : base;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  return ascii === name ? `attachment; filename="${name}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}

/** RFC 8187 value characters: ALPHA / DIGIT and `!#$&+-.^_`|~`; the rest percent-encoded as UTF-8. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
