import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'minio';
import { MinioObjectStore, MinioObjectStoreOptions } from './minio-object-store';
import { describeObjectStoreContract, describeResumableWriterContract, md5, readAll, tempFile } from './object-store.contract';

const endpoint = process.env.TEST_S3_ENDPOINT;
const accessKey = process.env.TEST_S3_ACCESS_KEY;
const secretKey = process.env.TEST_S3_SECRET_KEY;
if (!endpoint || !accessKey || !secretKey) {
  throw new Error(
    'TEST_S3_ENDPOINT, TEST_S3_ACCESS_KEY and TEST_S3_SECRET_KEY must be set: start a server (scripts/infra/s3.sh start) and export ' +
      'TEST_S3_ENDPOINT=$(scripts/infra/s3.sh endpoint) TEST_S3_ACCESS_KEY=$(scripts/infra/s3.sh access-key) TEST_S3_SECRET_KEY=$(scripts/infra/s3.sh secret-key)',
  );
}

jest.setTimeout(60_000);

const MiB = 1024 * 1024;
// A fresh bucket per run, so creating it on first use is exercised too.
const bucket = `int-${Date.now()}-${randomUUID().slice(0, 6)}`;
const options = (overrides: Partial<MinioObjectStoreOptions> = {}): MinioObjectStoreOptions => ({
  endpoint,
  accessKey,
  secretKey,
  bucket,
  region: 'us-east-1',
  // Small parts, so the 12 MB contract case is a multipart upload.
  partSizeBytes: 5 * MiB,
  ...overrides,
});
const url = new URL(endpoint);
const raw = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey, secretKey, region: 'us-east-1' });

afterAll(async () => {
  if (await raw.bucketExists(bucket)) {
    await new MinioObjectStore(options()).deletePrefix('');
    await raw.removeBucket(bucket);
  }
});

describeObjectStoreContract('S3 (minio client)', async () => new MinioObjectStore(options()));
// 5 MiB parts: the contract's appends cross part boundaries and leave pending bytes.
describeResumableWriterContract('S3 (minio client)', async () => new MinioObjectStore(options({ resumablePartBytes: 5 * MiB })));

describe('MinioObjectStore on a real S3-compatible server', () => {
  it('creates the bucket on first use, once, even when many stores race for it', async () => {
    const fresh = `int-race-${randomUUID().slice(0, 8)}`;
    expect(await raw.bucketExists(fresh)).toBe(false);
    const stores = Array.from({ length: 4 }, () => new MinioObjectStore(options({ bucket: fresh })));
    try {
      await Promise.all(stores.map((s, i) => s.putBuffer(`k/${i}.json`, String(i))));
      expect(await raw.bucketExists(fresh)).toBe(true);
      expect((await stores[0].list('k/')).map((o) => o.key)).toEqual(['k/0.json', 'k/1.json', 'k/2.json', 'k/3.json']);
    } finally {
      await stores[0].deletePrefix('');
      await raw.removeBucket(fresh);
    }
  });

  it('uploads a file larger than the part size in parts (multipart ETag) with its Content-Type', async () => {
    const bytes = randomBytes(12 * MiB);
    const input = tempFile(bytes);
    try {
      const store = new MinioObjectStore(options());
      await store.putFile('multipart/source.mp4', input.file);
      const stat = await raw.statObject(bucket, 'multipart/source.mp4');

      // S3's ETag of a multipart object is "<md5 of the part md5s>-<part count>": 12 MiB in 5 MiB parts.
      expect(stat.etag).toMatch(/^[0-9a-f]{32}-3$/);
      expect(stat.size).toBe(bytes.length);
      expect(stat.metaData['content-type']).toBe('video/mp4');
      expect(md5(await readAll(await store.getStream('multipart/source.mp4')))).toBe(md5(bytes));
    } finally {
      input.remove();
    }
  });

  it('stores objects under their exact keys in the configured bucket, visible to any S3 client', async () => {
    const store = new MinioObjectStore(options());
    await store.putBuffer('assets/x1/hls/master.m3u8', '#EXTM3U\n');

    const got = await readAll(await raw.getObject(bucket, 'assets/x1/hls/master.m3u8'));
    expect(got.toString()).toBe('#EXTM3U\n');
    expect((await raw.statObject(bucket, 'assets/x1/hls/master.m3u8')).metaData['content-type']).toBe('application/vnd.apple.mpegurl');
    await store.deletePrefix('assets/x1/');
  });

  it('deletes more objects than one DeleteObjects request takes (1000)', async () => {
    const store = new MinioObjectStore(options());
    const keys = Array.from({ length: 1005 }, (_, i) => `many/segment_${String(i).padStart(4, '0')}.ts`);
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => store.putBuffer(k, 'x')));

    expect((await store.list('many/')).length).toBe(1005);
    expect(await store.deletePrefix('many/')).toBe(1005);
    expect(await store.list('many/')).toEqual([]);
  });

  it('is refused by the server with wrong credentials (signatures are checked)', async () => {
    const store = new MinioObjectStore(options({ secretKey: 'not-the-secret' }));
    await expect(store.putBuffer('denied.json', '{}')).rejects.toMatchObject({ code: expect.stringMatching(/AccessDenied|SignatureDoesNotMatch/) });
  });
});
