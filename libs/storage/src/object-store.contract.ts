import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ObjectNotFoundError, ObjectStore } from './object-store.port';
import { ResumableWriter } from './resumable-write.port';

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

/** A temp file with these bytes, removed by the returned cleanup. */
export function tempFile(bytes: Buffer): { file: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'object-store-test-'));
  const file = path.join(dir, 'input.bin');
  fs.writeFileSync(file, bytes);
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The behaviour every ObjectStore adapter must have; run against the filesystem store in unit
 * tests and against a real S3-compatible server in integration tests. Each test works under
 * its own random prefix, so the store need not be empty.
 */
export function describeObjectStoreContract(name: string, makeStore: () => Promise<ObjectStore>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let store: ObjectStore;
    let ns: string; // this test's own prefix
    const cleanups: Array<() => void> = [];

    beforeAll(async () => {
      store = await makeStore();
    });
    beforeEach(() => {
      ns = `contract-${randomUUID().slice(0, 8)}/`;
    });
    afterEach(async () => {
      for (const c of cleanups.splice(0)) c();
      await store.deletePrefix(ns);
    });

    const file = (bytes: Buffer) => {
      const t = tempFile(bytes);
      cleanups.push(t.remove);
      return t.file;
    };

    it('round-trips a binary buffer and a UTF-8 string', async () => {
      const bytes = Buffer.concat([Buffer.from([0, 255, 0, 10, 13]), randomBytes(4096)]);
      await store.putBuffer(`${ns}bin/data.bin`, bytes);
      await store.putBuffer(`${ns}text/hello.json`, '{"greeting":"héllo wörld ✓"}');

      expect(md5(await store.getBuffer(`${ns}bin/data.bin`))).toBe(md5(bytes));
      expect((await store.getBuffer(`${ns}text/hello.json`)).toString('utf8')).toBe('{"greeting":"héllo wörld ✓"}');
      expect(md5(await readAll(await store.getStream(`${ns}bin/data.bin`)))).toBe(md5(bytes));
      expect((await store.stat(`${ns}text/hello.json`))?.size).toBe(Buffer.byteLength('{"greeting":"héllo wörld ✓"}'));
    });

    it('round-trips a file and leaves the source file in place', async () => {
      const bytes = randomBytes(100_000);
      const source = file(bytes);
      await store.putFile(`${ns}hls/720p/segment_000.ts`, source);

      expect(md5(await store.getBuffer(`${ns}hls/720p/segment_000.ts`))).toBe(md5(bytes));
      expect(md5(fs.readFileSync(source))).toBe(md5(bytes));
    });

    it('stores the content type derived from the key, or the one given', async () => {
      await store.putBuffer(`${ns}hls/master.m3u8`, '#EXTM3U\n');
      await store.putFile(`${ns}hls/source/segment_000.ts`, file(randomBytes(188)));
      await store.putBuffer(`${ns}blob`, 'x');
      await store.putBuffer(`${ns}custom.ts`, 'x', 'text/plain');
      await store.putFile(`${ns}custom-file.m3u8`, file(Buffer.from('#EXTM3U\n')), 'application/x-mpegURL');

      expect((await store.stat(`${ns}hls/master.m3u8`))?.contentType).toBe('application/vnd.apple.mpegurl');
      expect((await store.stat(`${ns}hls/source/segment_000.ts`))?.contentType).toBe('video/mp2t');
      expect((await store.stat(`${ns}blob`))?.contentType).toBe('application/octet-stream');
      expect((await store.stat(`${ns}custom.ts`))?.contentType).toBe('text/plain');
      expect((await store.stat(`${ns}custom-file.m3u8`))?.contentType).toBe('application/x-mpegURL');
    });

    it('stats an object with size, etag and modification time, and an absent key as undefined', async () => {
      const before = Date.now();
      await store.putBuffer(`${ns}a/one.vtt`, 'WEBVTT\n\n');
      const info = await store.stat(`${ns}a/one.vtt`);

      expect(info).toEqual({
        key: `${ns}a/one.vtt`,
        size: 8,
        contentType: 'text/vtt',
        etag: expect.stringMatching(/\S/),
        lastModified: expect.any(Date),
      });
      // S3 keeps whole seconds; allow for that and a little clock skew.
      expect(Math.abs(info!.lastModified.getTime() - before)).toBeLessThan(60_000);
      expect(await store.stat(`${ns}a/absent.vtt`)).toBeUndefined();
      expect(await store.stat(`${ns}a`)).toBeUndefined(); // a "folder" is not an object
    });

    it('reads byte ranges: from a start, start to end, the last byte, and an end past the size', async () => {
      const bytes = Buffer.from('0123456789abcdefghij'); // 20 bytes
      await store.putBuffer(`${ns}r.bin`, bytes);
      const read = async (start: number, end?: number) => (await readAll(await store.getStream(`${ns}r.bin`, { start, end }))).toString();

      expect(await read(15)).toBe('fghij');
      expect(await read(3, 7)).toBe('34567');
      expect(await read(0, 0)).toBe('0');
      expect(await read(19, 19)).toBe('j');
      expect(await read(19)).toBe('j');
      expect(await read(0)).toBe('0123456789abcdefghij');
      expect(await read(10, 1_000)).toBe('abcdefghij');
    });

    it('rejects a range that starts past the end, or that is malformed, with RangeError', async () => {
      await store.putBuffer(`${ns}r.bin`, Buffer.from('0123456789'));
      await expect(store.getStream(`${ns}r.bin`, { start: 10 })).rejects.toThrow(RangeError);
      await expect(store.getStream(`${ns}r.bin`, { start: 50, end: 60 })).rejects.toThrow(RangeError);
      await expect(store.getStream(`${ns}r.bin`, { start: 5, end: 4 })).rejects.toThrow(RangeError);
      await expect(store.getStream(`${ns}r.bin`, { start: -1 })).rejects.toThrow(RangeError);
    });

    it('throws ObjectNotFoundError naming the key for an absent object', async () => {
      const key = `${ns}missing/index.m3u8`;
      await expect(store.getBuffer(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(store.getStream(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(store.getStream(key, { start: 0, end: 10 })).rejects.toThrow(new ObjectNotFoundError(key));
      await expect(store.getBuffer(key)).rejects.toMatchObject({ key, name: 'ObjectNotFoundError' });
    });

    it('lists by string prefix, sorted by key, with sizes', async () => {
      await store.putBuffer(`${ns}assets/abc/hls/master.m3u8`, 'abc');
      await store.putBuffer(`${ns}assets/ab/hls/master.m3u8`, 'ab-master');
      await store.putBuffer(`${ns}assets/ab/hls/720p/segment_001.ts`, 'seg-1');
      await store.putBuffer(`${ns}assets/ab/hls/720p/segment_000.ts`, 'seg-0');
      await store.putBuffer(`${ns}assets/b/x.json`, '{}');

      const folder = await store.list(`${ns}assets/ab/`);
      expect(folder.map((o) => [o.key.slice(ns.length), o.size, o.contentType])).toEqual([
        ['assets/ab/hls/720p/segment_000.ts', 5, 'video/mp2t'],
        ['assets/ab/hls/720p/segment_001.ts', 5, 'video/mp2t'],
        ['assets/ab/hls/master.m3u8', 9, 'application/vnd.apple.mpegurl'],
      ]);
      expect(folder.every((o) => o.etag.length > 0 && o.lastModified instanceof Date)).toBe(true);
      // Without the slash it is a plain string prefix, as in S3.
      expect((await store.list(`${ns}assets/ab`)).map((o) => o.key.slice(ns.length))).toEqual([
        'assets/ab/hls/720p/segment_000.ts',
        'assets/ab/hls/720p/segment_001.ts',
        'assets/ab/hls/master.m3u8',
        'assets/abc/hls/master.m3u8',
      ]);
      expect((await store.list(`${ns}assets/ab/hls/720p/segment_00`)).map((o) => o.key.slice(ns.length))).toEqual([
        'assets/ab/hls/720p/segment_000.ts',
        'assets/ab/hls/720p/segment_001.ts',
      ]);
      expect(await store.list(`${ns}assets/zz/`)).toEqual([]);
      expect(await store.list(`${ns}nothing-here`)).toEqual([]);
    });

    it('deletes every object under a prefix, returns the count, and leaves siblings alone', async () => {
      for (const k of ['hls/master.m3u8', 'hls/720p/index.m3u8', 'hls/720p/segment_000.ts', 'hls/360p/segment_000.ts']) {
        await store.putBuffer(`${ns}assets/ab/${k}`, k);
      }
      await store.putBuffer(`${ns}assets/abc/hls/master.m3u8`, 'sibling');

      expect(await store.deletePrefix(`${ns}assets/ab/`)).toBe(4);

      expect(await store.list(`${ns}assets/ab/`)).toEqual([]);
      expect(await store.stat(`${ns}assets/ab/hls/master.m3u8`)).toBeUndefined();
      await expect(store.getBuffer(`${ns}assets/ab/hls/720p/segment_000.ts`)).rejects.toBeInstanceOf(ObjectNotFoundError);
      expect((await store.getBuffer(`${ns}assets/abc/hls/master.m3u8`)).toString()).toBe('sibling');
      expect(await store.deletePrefix(`${ns}assets/ab/`)).toBe(0);
      // The emptied folder can be written again.
      await store.putBuffer(`${ns}assets/ab/hls/master.m3u8`, 'again');
      expect((await store.getBuffer(`${ns}assets/ab/hls/master.m3u8`)).toString()).toBe('again');
    });

    it('replaces an object on overwrite: bytes, size, content type and etag', async () => {
      const key = `${ns}hls/master.m3u8`;
      await store.putBuffer(key, 'first version, longer');
      const first = await store.stat(key);
      await store.putFile(key, file(Buffer.from('second')), 'text/plain');
      const second = await store.stat(key);

      expect((await store.getBuffer(key)).toString()).toBe('second');
      expect(second).toMatchObject({ size: 6, contentType: 'text/plain' });
      expect(second?.etag).not.toBe(first?.etag);
      expect((await store.list(ns)).map((o) => o.key)).toEqual([key]);

      await store.putBuffer(key, '#EXTM3U\n'); // back to the type derived from the key
      expect(await store.stat(key)).toMatchObject({ size: 8, contentType: 'application/vnd.apple.mpegurl' });
    });

    it('handles keys in deeply nested folders', async () => {
      const key = `${ns}a/b/c/d/e/f/g/segment_000.ts`;
      await store.putBuffer(key, 'deep');
      expect((await store.getBuffer(key)).toString()).toBe('deep');
      expect((await store.list(`${ns}a/`)).map((o) => o.key)).toEqual([key]);
      expect((await store.list(`${ns}a/b/c/d/e/f/g/`)).map((o) => o.key)).toEqual([key]);
    });

    it('stores a 12 MB file intact and reads ranges of it', async () => {
      const bytes = randomBytes(12 * 1024 * 1024);
      const key = `${ns}big/source.mp4`;
      await store.putFile(key, file(bytes));

      expect(await store.stat(key)).toMatchObject({ size: bytes.length, contentType: 'video/mp4' });
      expect(md5(await readAll(await store.getStream(key)))).toBe(md5(bytes));
      const tail = await readAll(await store.getStream(key, { start: bytes.length - 1000 }));
      expect(tail.equals(bytes.subarray(bytes.length - 1000))).toBe(true);
      const middle = await readAll(await store.getStream(key, { start: 6_000_000, end: 6_100_000 }));
      expect(middle.equals(bytes.subarray(6_000_000, 6_100_001))).toBe(true);
    });

    it('never shows a reader part of an object being written', async () => {
      const key = `${ns}hls/720p/segment_000.ts`;
      const versions = [randomBytes(3 * 1024 * 1024), randomBytes(3 * 1024 * 1024)].map((b) => ({ b, sum: md5(b) }));
      await store.putBuffer(key, versions[0].b);
      const seen = new Set<string>();
      let writing = true;
      const reader = (async () => {
        while (writing) seen.add(md5(await store.getBuffer(key)));
      })();
      await store.putFile(key, file(versions[1].b));
      writing = false;
      await reader;
      seen.add(md5(await store.getBuffer(key)));

      expect([...seen].every((s) => s === versions[0].sum || s === versions[1].sum)).toBe(true);
      expect(seen.has(versions[1].sum)).toBe(true);
    });

    it('writes an object to a local file, and names the key when it is absent', async () => {
      const bytes = randomBytes(100_000);
      const key = `${ns}copy/source.mp4`;
      await store.putBuffer(key, bytes);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'object-store-get-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const target = path.join(dir, 'input');
      fs.writeFileSync(target, 'old content');
      await store.getFile(key, target);
      expect(md5(fs.readFileSync(target))).toBe(md5(bytes));
      await expect(store.getFile(`${ns}absent.mp4`, path.join(dir, 'x'))).rejects.toThrow(ObjectNotFoundError);
    });

    it('rejects keys that are not plain relative paths', async () => {
      for (const key of ['', '/abs.ts', '../escape.ts', `${ns}a/../../escape.ts`, `${ns}a//b.ts`, `${ns}folder/`, '.store/x']) {
        await expect(store.putBuffer(key, 'x')).rejects.toThrow(/invalid object key/);
      }
      await expect(store.list('../')).rejects.toThrow(/invalid object key/);
    });
  });
}

/** A stream of these bytes cut into pieces of `piece` bytes (as a socket delivers a request body). */
function streamOf(bytes: Buffer, piece = 64 * 1024): NodeJS.ReadableStream {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += piece) pieces.push(bytes.subarray(i, i + piece));
  return Readable.from(pieces);
}

/** A stream that delivers `bytes` and then fails, as a dropped connection does. */
function brokenStream(bytes: Buffer): NodeJS.ReadableStream {
  return Readable.from(
    (async function* () {
      yield bytes;
      throw new Error('connection reset');
    })(),
  );
}

/**
 * The behaviour of ResumableWriter (direct uploads) on both adapters. `MiB` appends of odd sizes
 * cross the S3 adapter's part size (5 MiB in the integration test) and its 5 MiB minimum.
 */
export function describeResumableWriterContract(name: string, makeStore: () => Promise<ObjectStore & ResumableWriter>): void {
  describe(`ResumableWriter contract: ${name}`, () => {
    const MiB = 1024 * 1024;
    let store: ObjectStore & ResumableWriter;
    let ns: string;

    beforeAll(async () => {
      store = await makeStore();
    });
    beforeEach(() => {
      ns = `resumable-${randomUUID().slice(0, 8)}/`;
    });
    afterEach(async () => {
      await store.deletePrefix(ns);
    });

    it('joins appends of any size, in order, into one object with its content type', async () => {
      const sizes = [3 * MiB, 1 * MiB, 7 * MiB + 123, 256 * 1024, 11 * MiB, 17];
      const chunks = sizes.map((n) => randomBytes(n));
      const key = `${ns}uploads/a/source`;
      let write = await store.begin(key, 'video/quicktime');
      for (const chunk of chunks) write = await store.append(write, streamOf(chunk));
      expect(write.size).toBe(sizes.reduce((a, b) => a + b, 0));
      expect(await store.stat(key)).toBeUndefined(); // nothing visible before the seal

      await store.seal(write);
      const all = Buffer.concat(chunks);
      expect(await store.stat(key)).toMatchObject({ size: all.length, contentType: 'video/quicktime' });
      expect(md5(await readAll(await store.getStream(key)))).toBe(md5(all));
      await store.seal(write); // a second seal (a retry) changes nothing
      expect(md5(await store.getBuffer(key))).toBe(md5(all));
    });

    it('keeps the last committed state valid when an append fails half-way', async () => {
      const first = randomBytes(6 * MiB);
      const second = randomBytes(2 * MiB);
      const key = `${ns}uploads/b/source`;
      const afterFirst = await store.append(await store.begin(key), streamOf(first));
      await expect(store.append(afterFirst, brokenStream(randomBytes(MiB)))).rejects.toThrow(/connection reset/);
      const afterSecond = await store.append(afterFirst, streamOf(second)); // the same request again
      await store.seal(afterSecond);
      expect(md5(await store.getBuffer(key))).toBe(md5(Buffer.concat([first, second])));
    });

    it('seals an empty write as an empty object', async () => {
      const key = `${ns}uploads/c/source`;
      const write = await store.append(await store.begin(key), streamOf(Buffer.alloc(0)));
      await store.seal(write);
      expect(await store.stat(key)).toMatchObject({ size: 0 });
    });

    it('discards a write without touching the key, twice without error', async () => {
      const key = `${ns}uploads/d/source`;
      await store.putBuffer(key, 'existing');
      const write = await store.append(await store.begin(key), streamOf(randomBytes(2 * MiB)));
      await store.discard(write);
      await store.discard(write);
      expect((await store.getBuffer(key)).toString()).toBe('existing');
      await expect(store.append(write, streamOf(Buffer.from('late')))).rejects.toThrow();
    });
  });
}
