/**
 * One object written by appends over many requests (a direct upload), then sealed into place.
 * The state is plain JSON: the caller keeps it between requests (in its database) and passes the
 * last one it committed, so a request that failed half-way is simply written again.
 */
export interface ResumableWrite {
  /** Where the object goes when sealed. */
  key: string;
  /** The adapter's own id (the S3 multipart upload id; a file name on the filesystem). */
  id: string;
  /** The sealed object's content type; default `contentTypeOf(key)`. */
  contentType?: string;
  /** Bytes appended so far. */
  size: number;
  /** S3 only: the parts written so far, in order. */
  parts: Array<{ number: number; etag: string; size: number }>;
  /** S3 only: the last bytes, not yet in a part (every part but the last must be at least 5 MiB). */
  pending?: { key: string; size: number };
}

/** The store side of direct uploads: bytes stream through, never held whole in memory. */
export interface ResumableWriter {
  begin(key: string, contentType?: string): Promise<ResumableWrite>;
  /** Appends the stream's bytes at `write.size`; returns the new state (the old one stays valid until then). */
  append(write: ResumableWrite, body: NodeJS.ReadableStream): Promise<ResumableWrite>;
  /** Makes the appended bytes the object at `write.key` (replacing any object there). */
  seal(write: ResumableWrite): Promise<void>;
  /** Drops everything appended; the key is untouched. Safe to call twice. */
  discard(write: ResumableWrite): Promise<void>;
}

/** Injection token of the service's ResumableWriter (the same adapter as its ObjectStore). */
export const RESUMABLE_WRITER = Symbol('RESUMABLE_WRITER');
