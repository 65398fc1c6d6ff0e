import { randomUUID } from 'node:crypto';
import { createWriteStream, Stats } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { contentTypeOf } from './content-type';
import { assertByteRange, assertObjectKey, assertObjectPrefix, compareKeys, isWholeObject } from './object-keys';
import { ByteRange, ObjectInfo, ObjectNotFoundError, ObjectStore } from './object-store.port';
import { ResumableWrite, ResumableWriter } from './resumable-write.port';

/**
 * A hard link when the file is on the same filesystem (a 500 MB rendition is stored at once instead
 * of being copied), else a copy.
 */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await fsp.link(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    await fsp.copyFile(from, to); // EXDEV (another filesystem), EPERM (no links there), …
  }
}

/** Errors meaning "there is no object at this path" (a missing file, or a folder or file in the way). */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);
const isAbsent = (err: unknown): boolean => ABSENT.has((err as NodeJS.ErrnoException).code ?? '');

/**
 * Objects as plain files: key `a/b/c.ts` is `<root>/a/b/c.ts`, so the tree can be browsed and
 * served as is. Writes go to `<root>/.store/tmp` and are renamed into place (atomic on one
 * filesystem), so a reader never sees part of an object; a reader that opened the old file keeps
 * reading the old bytes. A content type other than `contentTypeOf(key)` is kept in
 * `<root>/.store/meta/<key>.json`. Unlike S3, a key cannot also be a folder of other keys
 * (`a/b` and `a/b/c` cannot both exist).
 */
export class FsObjectStore implements ObjectStore, ResumableWriter {
  private readonly tmpDir: string;
  private readonly metaDir: string;
  private readonly resumableDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, '.store', 'tmp');
    this.metaDir = path.join(root, '.store', 'meta');
    this.resumableDir = path.join(root, '.store', 'resumable');
  }

  async putFile(key: string, filePath: string, contentType?: string): Promise<void> {
    await this.write(key, contentType, (tmp) => linkOrCopy(filePath, tmp));
  }

  async putBuffer(key: string, body: Buffer | string, contentType?: string): Promise<void> {
    await this.write(key, contentType, (tmp) => fsp.writeFile(tmp, body));
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    assertObjectKey(key);
    const stats = await fsp.stat(this.pathOf(key)).catch((err: unknown) => {
      if (isAbsent(err)) return undefined;
      throw err;
    });
    if (!stats?.isFile()) return undefined;
    return { ...infoOf(key, stats), contentType: await this.storedContentType(key) };
  }

  async getStream(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    assertObjectKey(key);
    if (range) assertByteRange(key, range);
    const file = await fsp.open(this.pathOf(key), 'r').catch((err: unknown) => {
      throw isAbsent(err) ? new ObjectNotFoundError(key) : err;
    });
    try {
      const stats = await file.stat();
      if (!stats.isFile()) throw new ObjectNotFoundError(key);
      if (!range || isWholeObject(range)) return file.createReadStream();
      if (range.start >= stats.size) {
        throw new RangeError(`byte range starts at ${range.start}, past the end of ${key} (${stats.size} bytes)`);
      }
      return file.createReadStream({ start: range.start, end: Math.min(range.end ?? stats.size - 1, stats.size - 1) });
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  async getBuffer(key: string): Promise<Buffer> {
    assertObjectKey(key);
    return fsp.readFile(this.pathOf(key)).catch((err: unknown) => {
      throw isAbsent(err) ? new ObjectNotFoundError(key) : err;
    });
  }

  async getFile(key: string, filePath: string): Promise<void> {
    assertObjectKey(key);
    await fsp.rm(filePath, { force: true });
    await linkOrCopy(this.pathOf(key), filePath).catch((err: unknown) => {
      throw isAbsent(err) ? new ObjectNotFoundError(key) : err;
    });
  }

  /** A resumable write is one file under `.store/resumable`, renamed into place when sealed. */
  async begin(key: string, contentType?: string): Promise<ResumableWrite> {
    assertObjectKey(key);
    await fsp.mkdir(this.resumableDir, { recursive: true });
    const id = randomUUID();
    await fsp.writeFile(path.join(this.resumableDir, id), '');
    return { key, id, size: 0, parts: [], ...(contentType ? { contentType } : {}) };
  }

  async append(write: ResumableWrite, body: NodeJS.ReadableStream): Promise<ResumableWrite> {
    const file = path.join(this.resumableDir, write.id);
    // Bytes past `size` are what a failed earlier request left: they are written over.
    await fsp.truncate(file, write.size).catch((err: unknown) => {
      throw isAbsent(err) ? new ObjectNotFoundError(`resumable write ${write.id}`) : err;
    });
    let written = 0;
    const counted = async function* (source: NodeJS.ReadableStream) {
      for await (const chunk of source) {
        written += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    };
    await pipeline(body, counted, createWriteStream(file, { flags: 'r+', start: write.size }));
    return { ...write, size: write.size + written };
  }

  async seal(write: ResumableWrite): Promise<void> {
    assertObjectKey(write.key);
    const file = path.join(this.resumableDir, write.id);
    const truncated = await fsp.truncate(file, write.size).then(
      () => true,
      (err: unknown) => {
        if (!isAbsent(err)) throw err;
        return false;
      },
    );
    if (!truncated) {
      // Sealed before (a retry after the caller failed to record it), or discarded.
      if ((await this.stat(write.key))?.size === write.size) return;
      throw new ObjectNotFoundError(`resumable write ${write.id}`);
    }
    await fsp.mkdir(this.tmpDir, { recursive: true });
    await this.writeContentType(write.key, write.contentType ?? contentTypeOf(write.key));
    await renameInto(file, this.pathOf(write.key));
  }

  async discard(write: ResumableWrite): Promise<void> {
    await fsp.rm(path.join(this.resumableDir, write.id), { force: true });
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    assertObjectPrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const folder = prefix.slice(0, Math.max(slash, 0));
    const namePrefix = prefix.slice(slash + 1);
    const keys: string[] = [];
    for (const entry of await readFolder(this.pathOf(folder))) {
      // Dot entries at the root are the store's own files (keys cannot start with a dot).
      if (!entry.name.startsWith(namePrefix) || (folder === '' && entry.name.startsWith('.'))) continue;
      const key = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) keys.push(...(await this.keysUnder(key)));
      else if (entry.isFile()) keys.push(key);
    }
    const infos: ObjectInfo[] = [];
    for (const key of keys.sort(compareKeys)) {
      // An object deleted while listing is simply not listed.
      const stats = await fsp.stat(this.pathOf(key)).catch(() => undefined);
      if (stats?.isFile()) infos.push({ ...infoOf(key, stats), contentType: contentTypeOf(key) });
    }
    return infos;
  }

  async deletePrefix(prefix: string): Promise<number> {
    const objects = await this.list(prefix);
    let removed = 0;
    for (let i = 0; i < objects.length; i += 64) {
      const batch = objects.slice(i, i + 64);
      const results = await Promise.all(batch.map((o) => this.remove(o.key)));
      removed += results.filter(Boolean).length;
    }
    await this.pruneEmptyFolders(objects.map((o) => o.key));
    return removed;
  }

  private pathOf(key: string): string {
    return key === '' ? this.root : path.join(this.root, ...key.split('/'));
  }

  private metaPathOf(key: string): string {
    return path.join(this.metaDir, ...`${key}.json`.split('/'));
  }

  private async write(key: string, contentType: string | undefined, fill: (tmp: string) => Promise<void>): Promise<void> {
    assertObjectKey(key);
    await fsp.mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, randomUUID());
    try {
      await fill(tmp);
      await this.writeContentType(key, contentType ?? contentTypeOf(key));
      await renameInto(tmp, this.pathOf(key));
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  private async writeContentType(key: string, contentType: string): Promise<void> {
    const metaPath = this.metaPathOf(key);
    if (contentType === contentTypeOf(key)) {
      await fsp.rm(metaPath, { force: true });
      return;
    }
    const tmp = path.join(this.tmpDir, `${randomUUID()}.json`);
    try {
      await fsp.writeFile(tmp, JSON.stringify({ contentType }));
      await renameInto(tmp, metaPath);
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  private async storedContentType(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await fsp.readFile(this.metaPathOf(key), 'utf8')) as { contentType?: string };
      return meta.contentType ?? contentTypeOf(key);
    } catch (err) {
      if (isAbsent(err)) return contentTypeOf(key);
      throw err;
    }
  }

  private async keysUnder(folderKey: string): Promise<string[]> {
    const keys: string[] = [];
    for (const entry of await readFolder(this.pathOf(folderKey))) {
      const key = `${folderKey}/${entry.name}`;
      if (entry.isDirectory()) keys.push(...(await this.keysUnder(key)));
      else if (entry.isFile()) keys.push(key);
    }
    return keys;
  }

  /** True when this call removed the object (false when it was already gone). */
  private async remove(key: string): Promise<boolean> {
    await fsp.rm(this.metaPathOf(key), { force: true });
    try {
      await fsp.unlink(this.pathOf(key));
      return true;
    } catch (err) {
      if (isAbsent(err)) return false;
      throw err;
    }
  }

  /** Removes the folders left empty by deleted keys, deepest first, so deleted assets leave no trace. */
  private async pruneEmptyFolders(keys: string[]): Promise<void> {
    const folders = new Set<string>();
    for (const key of keys) {
      for (let f = path.posix.dirname(key); f !== '.'; f = path.posix.dirname(f)) folders.add(f);
    }
    const deepestFirst = [...folders].sort((a, b) => b.split('/').length - a.split('/').length);
    for (const folder of deepestFirst) {
      for (const dir of [this.pathOf(folder), path.join(this.metaDir, ...folder.split('/'))]) {
        // Not empty (another object, or a concurrent write) or already gone: leave it.
        await fsp.rmdir(dir).catch(() => undefined);
      }
    }
  }
}

function infoOf(key: string, stats: Stats): Omit<ObjectInfo, 'contentType'> {
  // A put renames a new file into place, so the inode changes with every version.
  const etag = [stats.ino, stats.size, Math.floor(stats.mtimeMs)].map((n) => n.toString(16)).join('-');
  return { key, size: stats.size, etag, lastModified: new Date(stats.mtimeMs) };
}

async function readFolder(dir: string) {
  return fsp.readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    if (isAbsent(err)) return [];
    throw err;
  });
}

/**
 * Moves a finished temp file to its place. Retried because a concurrent deletePrefix may remove
 * the (then empty) target folder between our mkdir and rename.
 */
async function renameInto(tmp: string, target: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      await fsp.rename(tmp, target);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw err;
    }
  }
}
