import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig, PLATFORM_CONFIG } from '@platform/config';
import { FsObjectStore } from './fs-object-store';
import { MinioObjectStore } from './minio-object-store';
import { describeObjectStoreContract, describeResumableWriterContract } from './object-store.contract';
import { createObjectStore } from './object-store.factory';
import { OBJECT_STORE, StorageModule } from './storage.module';

const roots: string[] = [];
function tempRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-object-store-'));
  roots.push(root);
  return root;
}
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

describeObjectStoreContract('filesystem', async () => new FsObjectStore(tempRoot()));
describeResumableWriterContract('filesystem', async () => new FsObjectStore(tempRoot()));

/** Every file under a folder, as `/`-separated paths relative to it. */
function filesUnder(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('FsObjectStore on disk', () => {
  let root: string;
  let store: FsObjectStore;
  beforeEach(() => {
    root = tempRoot();
    store = new FsObjectStore(root);
  });

  it('keeps each object as a plain file at its key, and a sidecar only for a non-derived content type', async () => {
    await store.putBuffer('assets/a1/hls/master.m3u8', '#EXTM3U\n');
    await store.putBuffer('assets/a1/hls/source/segment_000.ts', 'seg', 'video/MP2T-custom');

    expect(fs.readFileSync(path.join(root, 'assets/a1/hls/master.m3u8'), 'utf8')).toBe('#EXTM3U\n');
    expect(filesUnder(root)).toEqual([
      '.store/meta/assets/a1/hls/source/segment_000.ts.json',
      'assets/a1/hls/master.m3u8',
      'assets/a1/hls/source/segment_000.ts',
    ]);
    expect((await store.list('')).map((o) => o.key)).toEqual(['assets/a1/hls/master.m3u8', 'assets/a1/hls/source/segment_000.ts']);
  });

  it('removes the folders and sidecars of deleted objects, but not the root', async () => {
    await store.putBuffer('assets/a1/hls/720p/segment_000.ts', 'x', 'application/x-custom');
    await store.putBuffer('assets/a2/hls/master.m3u8', 'y');

    expect(await store.deletePrefix('assets/a1/')).toBe(1);

    expect(filesUnder(root)).toEqual(['assets/a2/hls/master.m3u8']);
    expect(fs.existsSync(path.join(root, 'assets/a1'))).toBe(false);
    expect(fs.existsSync(path.join(root, '.store/meta/assets/a1'))).toBe(false);
    expect(await store.deletePrefix('')).toBe(1);
    expect(fs.readdirSync(root).filter((n) => !n.startsWith('.'))).toEqual([]);
  });

  it('leaves no temp file behind, also when the source file is missing', async () => {
    await store.putFile('a/ok.ts', __filename);
    await expect(store.putFile('a/missing.ts', path.join(root, 'no-such-file.ts'))).rejects.toMatchObject({ code: 'ENOENT' });

    expect(fs.readdirSync(path.join(root, '.store/tmp'))).toEqual([]);
    expect(await store.stat('a/missing.ts')).toBeUndefined();
    expect((await store.list('a/')).map((o) => o.key)).toEqual(['a/ok.ts']);
  });

  it('stores a file of the same filesystem as a hard link, which outlives the source file', async () => {
    const source = path.join(root, 'rendition.ts');
    fs.writeFileSync(source, Buffer.alloc(4096, 7));
    await store.putFile('a/rendition.ts', source);
    expect(fs.statSync(path.join(root, 'a/rendition.ts')).ino).toBe(fs.statSync(source).ino);
    fs.rmSync(source);
    expect(await store.getBuffer('a/rendition.ts')).toEqual(Buffer.alloc(4096, 7));
    expect(fs.readdirSync(path.join(root, '.store/tmp'))).toEqual([]);
  });

  it('keeps serving the old bytes to a stream opened before an overwrite', async () => {
    await store.putBuffer('a/seg.ts', Buffer.alloc(256 * 1024, 1));
    const stream = await store.getStream('a/seg.ts');
    await store.putBuffer('a/seg.ts', Buffer.alloc(10, 2));
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);

    expect(Buffer.concat(chunks).equals(Buffer.alloc(256 * 1024, 1))).toBe(true);
    expect((await store.getBuffer('a/seg.ts')).equals(Buffer.alloc(10, 2))).toBe(true);
  });
});

describe('createObjectStore and StorageModule', () => {
  it('uses the filesystem under DATA_DIR/objects without S3 settings', async () => {
    const dataDir = tempRoot();
    const store = createObjectStore(loadConfig({ DATA_DIR: dataDir }));
    await store.putBuffer('k/v.json', '{}');

    expect(store).toBeInstanceOf(FsObjectStore);
    expect(fs.readFileSync(path.join(dataDir, 'objects/k/v.json'), 'utf8')).toBe('{}');
  });

  it('uses the S3 client when S3_ENDPOINT is set (no request until first use)', () => {
    const config = loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:1', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' });
    expect(createObjectStore(config)).toBeInstanceOf(MinioObjectStore);
  });

  it('provides OBJECT_STORE from PLATFORM_CONFIG to every module', async () => {
    const dataDir = tempRoot();
    @Global()
    @Module({ providers: [{ provide: PLATFORM_CONFIG, useValue: loadConfig({ DATA_DIR: dataDir }) }], exports: [PLATFORM_CONFIG] })
    class ConfigModule {}
    const moduleRef = await Test.createTestingModule({ imports: [ConfigModule, StorageModule.forRoot()] }).compile();
    const store = moduleRef.get<FsObjectStore>(OBJECT_STORE);
    await store.putBuffer('x.json', '1');

    expect(fs.existsSync(path.join(dataDir, 'objects/x.json'))).toBe(true);
    await moduleRef.close();
  });
});
