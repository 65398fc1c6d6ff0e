import { randomBytes } from 'node:crypto';

/** Where a simulcast target is published, as an RTMP client addresses it. */
export interface RtmpTarget {
  tls: boolean;
  /** Host name or address, as written in the URL (IPv6 without brackets). */
  host: string;
  port: number;
  /** The RTMP application (the URL's path, query included), sent in `connect`. */
  app: string;
  /** `connect`'s tcUrl: the target URL without the stream name. */
  tcUrl: string;
  /** The stream name `publish` names: the target's stream key (a credential). */
  streamName: string;
}

/**
 * A target's `url` (the service's RTMP URL, application included) and `stream_key`, split as OBS
 * and librtmp do: the whole URL is the application, the key the stream name. Without a key the last
 * path segment of the URL is the stream name.
 */
export function rtmpTargetOf(url: string, streamKey: string | null): RtmpTarget {
  const u = new URL(url);
  const tls = u.protocol === 'rtmps:';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = u.port ? Number(u.port) : tls ? 443 : 1935;
  const segments = u.pathname.replace(/^\/+|\/+$/g, '').split('/');
  let appPath: string;
  let streamName: string;
  if (streamKey) {
    appPath = segments.join('/') + u.search;
    streamName = streamKey;
  } else {
    streamName = decodeURIComponent(segments.length > 1 ? segments.pop()! : '') + u.search;
    appPath = segments.join('/');
  }
  const authority = `${u.hostname}${u.port ? `:${u.port}` : ''}`;
  return { tls, host, port, app: decodeURIComponent(appPath), tcUrl: `${u.protocol}//${authority}/${appPath}`, streamName };
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random stand-in of exactly `bytes` bytes (ASCII letters and digits). */
export function standIn(bytes: number): string {
  return [...randomBytes(bytes)].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('');
}
