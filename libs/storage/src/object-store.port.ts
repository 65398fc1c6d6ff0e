/** What a store knows about one object. */
export interface ObjectInfo {
  key: string;
  size: number;
  /**
   * The type given to put (or derived from the key by `contentTypeOf`) when returned by `stat`.
   * In `list` results it is always derived from the key: S3 listings do not carry it.
   */
  contentType: string;
  /** Changes whenever the object is replaced; opaque (MD5 on S3, inode-size-mtime on the filesystem). */
  etag: string;
  lastModified: Date;
}

/** Bytes `start` to `end` inclusive, as in an HTTP Range header; no `end` means to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

/**
 * Where media and other blobs live: the filesystem in embedded mode, S3 (MinIO, AWS, …) in
 * production. Keys are `/`-separated paths (`assets/{id}/hls/master.m3u8`); a prefix is a plain
 * string prefix as in S3 (`assets/ab` also matches `assets/abc/…`; end it with `/` for a folder).
 * A put is atomic: readers see the old object or the whole new one, never part of it.
 */
export interface ObjectStore {
  /**
   * Uploads a local file; `contentType` defaults to `contentTypeOf(key)`. The store may keep the
   * file itself (a hard link on the filesystem store): never change it in place afterwards (delete,
   * or replace it with a new file, as ffmpeg and the transcoder's attempt folders do).
   */
  putFile(key: string, filePath: string, contentType?: string): Promise<void>;
  putBuffer(key: string, body: Buffer | string, contentType?: string): Promise<void>;
  /** Undefined when the object does not exist. */
  stat(key: string): Promise<ObjectInfo | undefined>;
  /**
   * The object's bytes, or the range of them (an `end` past the last byte is clamped).
   * Throws ObjectNotFoundError, or RangeError when `start` is not inside the object.
   */
  getStream(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream>;
  /** Throws ObjectNotFoundError. */
  getBuffer(key: string): Promise<Buffer>;
  /**
   * Writes the object to a local file (replacing it). The filesystem store may hard-link it: never
   * change that file in place. Throws ObjectNotFoundError.
   */
  getFile(key: string, filePath: string): Promise<void>;
  /** Every object whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<ObjectInfo[]>;
  /** Removes every object whose key starts with `prefix`; returns how many were removed. */
  deletePrefix(prefix: string): Promise<number>;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}
