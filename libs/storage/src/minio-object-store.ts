import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { BucketItem, Client, S3Error } from 'minio';
import { contentTypeOf } from './content-type';
import { assertByteRange, assertObjectKey, assertObjectPrefix, compareKeys, isWholeObject } from './object-keys';
import { ByteRange, ObjectInfo, ObjectNotFoundError, ObjectStore } from './object-store.port';
import { ResumableWrite, ResumableWriter } from './resumable-write.port';

export interface MinioObjectStoreOptions {
  /** `http(s)://host:port` of an S3-compatible server (MinIO, AWS S3, S3Proxy, …). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  /** Uploads larger than this go in parts of this size; default: the client's (64 MiB), minimum 5 MiB. */
  partSizeBytes?: number;
  /** Part size of resumable writes (each part is held in memory while it is sent); default 16 MiB. */
  resumablePartBytes?: number;
}

const MiB = 1024 * 1024;
/** S3's smallest part (every part but the last). */
export const S3_MIN_PART_BYTES = 5 * MiB;
const DEFAULT_RESUMABLE_PART_BYTES = 16 * MiB;

/** S3's DeleteObjects accepts at most this many keys per request. */
const DELETE_BATCH = 1000;
const ABSENT_CODES = new Set(['NoSuchKey', 'NotFound', 'NoSuchObject']);
const BUCKET_EXISTS_CODES = new Set(['BucketAlreadyOwnedByYou', 'BucketAlreadyExists']);

const codeOf = (err: unknown): string | undefined => (err instanceof S3Error ? err.code : undefined);

/**
 * Objects in one S3 bucket through the `minio` client (path-style requests, so any
 * S3-compatible server works). The bucket is created on first use when it does not exist.
 * Puts are atomic on S3 by definition; large files are uploaded in parts.
 */
export class MinioObjectStore implements ObjectStore, ResumableWriter {
  private readonly client: Client;
  private bucketReady?: Promise<void>;

  constructor(private readonly options: MinioObjectStoreOptions) {
    const url = new URL(options.endpoint);
    if (url.pathname !== '/' || url.search) throw new Error(`S3 endpoint must have no path: ${options.endpoint}`);
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      useSSL: url.protocol === 'https:',
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      pathStyle: true,
      ...(options.partSizeBytes ? { partSize: options.partSizeBytes } : {}),
    });
  }

  async putFile(key: string, filePath: string, contentType?: string): Promise<void> {
    assertObjectKey(key);
    const bucket = await this.bucket();
    await this.client.fPutObject(bucket, key, filePath, { 'Content-Type': contentType ?? contentTypeOf(key) });
  }

  async putBuffer(key: string, body: Buffer | string, contentType?: string): Promise<void> {
    assertObjectKey(key);
    const bucket = await this.bucket();
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    await this.client.putObject(bucket, key, bytes, bytes.length, { 'Content-Type': contentType ?? contentTypeOf(key) });
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    assertObjectKey(key);
    const bucket = await this.bucket();
    try {
      const s = await this.client.statObject(bucket, key);
      const contentType = (s.metaData['content-type'] as string | undefined) ?? contentTypeOf(key);
      return { key, size: s.size, contentType, etag: s.etag, lastModified: s.lastModified };
    } catch (err) {
      if (ABSENT_CODES.has(codeOf(err) ?? '')) return undefined;
      throw err;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    assertObjectKey(key);
    if (range) assertByteRange(key, range);
    const bucket = await this.bucket();
    try {
      if (!range || isWholeObject(range)) return await this.client.getObject(bucket, key);
      const length = range.end === undefined ? 0 : range.end - range.start + 1;
      // offset 0 with a length still sends a Range header (`bytes=0-<end>`).
      return await this.client.getPartialObject(bucket, key, range.start, length);
    } catch (err) {
      if (ABSENT_CODES.has(codeOf(err) ?? '')) throw new ObjectNotFoundError(key);
      if (codeOf(err) === 'InvalidRange') {
        throw new RangeError(`byte range starts at ${range?.start}, past the end of ${key}`, { cause: err });
      }
      throw err;
    }
  }

  async getBuffer(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.getStream(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async getFile(key: string, filePath: string): Promise<void> {
    await pipeline(await this.getStream(key), createWriteStream(filePath));
  }

  /**
   * A resumable write is an S3 multipart upload. Bytes are cut into parts of `resumablePartBytes`;
   * a request's last bytes too few for a part (under 5 MiB) wait in a `pending` object under
   * `.resumable/` and lead the next part. Memory per write: one part.
   */
  async begin(key: string, contentType?: string): Promise<ResumableWrite> {
    assertObjectKey(key);
    const bucket = await this.bucket();
    const id = await this.client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType ?? contentTypeOf(key) });
    return { key, id, size: 0, parts: [], ...(contentType ? { contentType } : {}) };
  }

  async append(write: ResumableWrite, body: NodeJS.ReadableStream): Promise<ResumableWrite> {
    const bucket = await this.bucket();
    const partBytes = Math.max(this.options.resumablePartBytes ?? DEFAULT_RESUMABLE_PART_BYTES, S3_MIN_PART_BYTES);
    const parts = [...write.parts];
    const buffered: Buffer[] = [];
    let bufferedBytes = 0;
    let received = 0;
    const flush = async (bytes: number) => {
      const all = Buffer.concat(buffered);
      const part = all.subarray(0, bytes);
      buffered.length = 0;
      if (all.length > bytes) buffered.push(all.subarray(bytes));
      bufferedBytes = all.length - bytes;
      const number = parts.length + 1;
      const { etag } = await this.client.uploadPart(
        { bucketName: bucket, objectName: write.key, uploadID: write.id, partNumber: number, headers: { 'Content-Length': part.length } },
        part,
      );
      parts.push({ number, etag, size: part.length });
    };
    const take = async (chunk: Buffer) => {
      buffered.push(chunk);
      bufferedBytes += chunk.length;
      while (bufferedBytes >= partBytes) await flush(partBytes);
    };
    if (write.pending) {
      for await (const chunk of await this.client.getObject(bucket, write.pending.key)) await take(chunk as Buffer);
    }
    for await (const chunk of body) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      received += bytes.length;
      await take(bytes);
    }
    const size = write.size + received;
    let pending: ResumableWrite['pending'];
    if (bufferedBytes >= S3_MIN_PART_BYTES) {
      await flush(bufferedBytes);
    } else if (bufferedBytes > 0) {
      // Named by the size it completes, so it never overwrites the pending object of the state before.
      pending = { key: `.resumable/${write.id}/pending-${size}`, size: bufferedBytes };
      const rest = Buffer.concat(buffered);
      await this.client.putObject(bucket, pending.key, rest, rest.length);
    }
    if (write.pending && write.pending.key !== pending?.key) await this.removeQuietly(write.pending.key);
    return { ...write, size, parts, pending };
  }

  async seal(write: ResumableWrite): Promise<void> {
    const bucket = await this.bucket();
    const parts = [...write.parts];
    try {
      if (write.pending) {
        const rest = await readStream(await this.client.getObject(bucket, write.pending.key));
        const number = parts.length + 1;
        const { etag } = await this.client.uploadPart(
          { bucketName: bucket, objectName: write.key, uploadID: write.id, partNumber: number, headers: { 'Content-Length': rest.length } },
          rest,
        );
        parts.push({ number, etag, size: rest.length });
      }
      if (parts.length === 0) {
        // S3 completes no upload without parts: an empty object is put instead.
        await this.client.putObject(bucket, write.key, Buffer.alloc(0), 0);
        await this.client.abortMultipartUpload(bucket, write.key, write.id);
      } else {
        await this.client.completeMultipartUpload(
          bucket,
          write.key,
          write.id,
          parts.map((p) => ({ part: p.number, etag: p.etag })),
        );
      }
    } catch (err) {
      // Sealed before (a retry after the caller failed to record it): the upload and its pending bytes are gone.
      const gone = codeOf(err) === 'NoSuchUpload' || ABSENT_CODES.has(codeOf(err) ?? '');
      if (gone && (await this.stat(write.key))?.size === write.size) return;
      throw err;
    }
    if (write.pending) await this.removeQuietly(write.pending.key);
  }

  async discard(write: ResumableWrite): Promise<void> {
    const bucket = await this.bucket();
    await this.client.abortMultipartUpload(bucket, write.key, write.id).catch((err: unknown) => {
      if (codeOf(err) !== 'NoSuchUpload') throw err;
    });
    const leftovers = [];
    for await (const item of this.listed(bucket, `.resumable/${write.id}/`)) if (item.name) leftovers.push(item.name);
    if (leftovers.length > 0) await this.client.removeObjects(bucket, leftovers);
  }

  /** Every object under `prefix` (minio types its listing stream's items loosely). */
  private listed(bucket: string, prefix: string): AsyncIterable<BucketItem> {
    return this.client.listObjectsV2(bucket, prefix, true) as AsyncIterable<BucketItem>;
  }

  private async removeQuietly(key: string): Promise<void> {
    await this.client.removeObject(await this.bucket(), key).catch(() => undefined);
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    assertObjectPrefix(prefix);
    const bucket = await this.bucket();
    const objects: ObjectInfo[] = [];
    for await (const item of this.listed(bucket, prefix)) {
      if (!item.name) continue; // a common prefix; none when listing recursively
      objects.push({
        key: item.name,
        size: item.size,
        contentType: contentTypeOf(item.name),
        etag: item.etag,
        lastModified: item.lastModified,
      });
    }
    return objects.sort((a, b) => compareKeys(a.key, b.key));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = (await this.list(prefix)).map((o) => o.key);
    const bucket = await this.bucket();
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      // Quiet mode: the response lists only the keys that failed (minio 8 returns the <Error>
      // elements themselves, although its type declares them wrapped in `Error`).
      const failed = (await this.client.removeObjects(bucket, keys.slice(i, i + DELETE_BATCH))).filter(Boolean);
      if (failed.length > 0) {
        const first = (failed[0]?.Error ?? failed[0]) as { Key?: string; Code?: string; Message?: string };
        throw new Error(`could not delete ${failed.length} objects under ${prefix} (first: ${first.Key}: ${first.Code} ${first.Message})`);
      }
    }
    return keys.length;
  }

  /** The bucket name, once the bucket exists; creation is attempted again after a failure. */
  private async bucket(): Promise<string> {
    this.bucketReady ??= this.ensureBucket().catch((err: unknown) => {
      this.bucketReady = undefined;
      throw err;
    });
    await this.bucketReady;
    return this.options.bucket;
  }

  private async ensureBucket(): Promise<void> {
    const { bucket, region } = this.options;
    if (await this.client.bucketExists(bucket)) return;
    try {
      await this.client.makeBucket(bucket, region);
    } catch (err) {
      // Another process (or service) created it at the same time.
      if (!BUCKET_EXISTS_CODES.has(codeOf(err) ?? '')) throw err;
    }
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
