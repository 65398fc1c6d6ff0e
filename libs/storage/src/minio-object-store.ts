import { Client, S3Error } from 'minio';
import { contentTypeOf } from './content-type';
import { assertByteRange, assertObjectKey, assertObjectPrefix, compareKeys, isWholeObject } from './object-keys';
import { ByteRange, ObjectInfo, ObjectNotFoundError, ObjectStore } from './object-store.port';

export interface MinioObjectStoreOptions {
  /** `http(s)://host:port` of an S3-compatible server (MinIO, AWS S3, S3Proxy, …). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  /** Uploads larger than this go in parts of this size; default: the client's (64 MiB), minimum 5 MiB. */
  partSizeBytes?: number;
}

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
export class MinioObjectStore implements ObjectStore {
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
        throw new RangeError(`byte range starts at ${range?.start}, past the end of ${key}`);
      }
      throw err;
    }
  }

  async getBuffer(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.getStream(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    assertObjectPrefix(prefix);
    const bucket = await this.bucket();
    const objects: ObjectInfo[] = [];
    for await (const item of this.client.listObjectsV2(bucket, prefix, true)) {
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
