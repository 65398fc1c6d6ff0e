/** Values Mux derives from the source URL and the viewer's country. */

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** `US` → `United States` (Node's ICU data); unknown codes → null. */
export function countryName(code: string | null): string | null {
  if (code === null || !/^[A-Za-z]{2}$/.test(code)) return null;
  try {
    const name = regionNames.of(code.toUpperCase());
    return name && name !== code.toUpperCase() ? name : null;
  } catch {
    return null;
  }
}

function parseUrl(url: string | null): URL | null {
  if (url === null) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

export function sourceHostname(url: string | null): string | null {
  return parseUrl(url)?.hostname || null;
}

/** The last two labels of the host (`stream.example.com` → `example.com`), as mux-embed's `video_source_domain`. */
export function sourceDomain(url: string | null): string | null {
  const host = sourceHostname(url);
  if (host === null) return null;
  if (/^[\d.]+$/.test(host) || host.includes(':')) return host;
  return host.split('.').slice(-2).join('.');
}

const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  m3u8: 'application/x-mpegURL',
  mpd: 'application/dash+xml',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  webm: 'video/webm',
};

/** The MIME type the URL's extension says, when the player did not send one. */
export function sourceType(url: string | null): string | null {
  const path = parseUrl(url)?.pathname ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && TYPES_BY_EXTENSION[extension]) ?? null;
}

export function streamType(isLive: boolean | null): string | null {
  if (isLive === null) return null;
  return isLive ? 'live' : 'on-demand';
}
