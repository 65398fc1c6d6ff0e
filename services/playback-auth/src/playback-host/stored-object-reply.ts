import { contentTypeOf, ObjectInfo, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { parseRange } from './byte-range';
import { PlaybackError } from './playback-error';
import type { PlaybackReply } from './playback-host.service';

/** Conditional and range headers of a request for a stored file. */
export interface FileRequestHeaders {
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

/** How to answer for one stored file: its key, the name it is known by, and the headers of its kind. */
export interface StoredFile {
  key: string;
  name: string;
  cacheControl: string;
  /** Added to every reply but 304 (e.g. Content-Disposition). */
  headers?: Record<string, string>;
}

/**
 * A stored file as HTTP serves it: streamed as stored, `ETag` and `Last-Modified` (304 for a matching
 * `If-None-Match` / `If-Modified-Since`), one byte range (206, or 416 outside the object; `If-Range` that
 * no longer matches asks for the whole), `Accept-Ranges`; HEAD gets the headers alone. 404 when the
 * object is not there (`notFound`).
 */
export async function storedFileReply(
  store: ObjectStore,
  file: StoredFile,
  headers: FileRequestHeaders,
  head: boolean,
  notFound: () => PlaybackError,
): Promise<PlaybackReply> {
  const info = await store.stat(file.key);
  if (!info) throw notFound();
  const etag = quoted(info.etag);
  const validators = { etag, 'last-modified': info.lastModified.toUTCString(), 'cache-control': file.cacheControl };
  if (notModified(headers, etag, info)) return { status: 304, headers: validators };

  const common = { ...validators, ...(file.headers ?? {}), 'content-type': contentTypeOf(file.name), 'accept-ranges': 'bytes' };
  const range = rangeOf(headers, etag, info);
  if (range.kind === 'unsatisfiable') throw PlaybackError.rangeNotSatisfiable(info.size);
  const open = async (part?: { start: number; end: number }) => {
    try {
      return await store.getStream(file.key, part);
    } catch (err) {
      // deleted between stat and read
      if (err instanceof ObjectNotFoundError) throw notFound();
      throw err;
    }
  };
  if (range.kind === 'whole') {
    return { status: 200, headers: { ...common, 'content-length': String(info.size) }, body: head ? undefined : await open() };
  }
  return {
    status: 206,
    headers: { ...common, 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${info.size}` },
    body: head ? undefined : await open({ start: range.start, end: range.end }),
  };
}

/** Stores differ: S3 ETags come quoted, others may not. HTTP wants the quotes. */
function quoted(etag: string): string {
  return /^(W\/)?".*"$/.test(etag) ? etag : `"${etag}"`;
}

function notModified(headers: FileRequestHeaders, etag: string, info: ObjectInfo): boolean {
  if (headers.ifNoneMatch !== undefined) {
    return headers.ifNoneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t === etag || t === `W/${etag}` || `W/${t}` === etag;
    });
  }
  if (headers.ifModifiedSince !== undefined) {
    const since = Date.parse(headers.ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(info.lastModified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** The range to serve; `If-Range` that no longer matches the object asks for the whole of it. */
function rangeOf(headers: FileRequestHeaders, etag: string, info: ObjectInfo) {
  const ifRange = headers.ifRange?.trim();
  if (ifRange !== undefined && ifRange !== etag && ifRange !== info.lastModified.toUTCString()) return { kind: 'whole' as const };
  return parseRange(headers.range, info.size);
}
