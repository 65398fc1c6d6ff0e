import { readFile, writeFile } from 'node:fs/promises';
import { ByteRange, contentTypeOf, ObjectInfo, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { Readable } from 'node:stream';

/** ObjectStore in memory; `log` keeps every put and delete in order. */
export class InMemoryStore implements ObjectStore {
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();

  constructor(readonly log: string[] = []) {}

  async putFile(key: string, filePath: string, contentType?: string): Promise<void> {
    await this.putBuffer(key, await readFile(filePath), contentType);
  }

  async putBuffer(key: string, body: Buffer | string, contentType?: string): Promise<void> {
    this.objects.set(key, { body: Buffer.from(body), contentType: contentType ?? contentTypeOf(key) });
    this.log.push(`put ${key}`);
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    const o = this.objects.get(key);
    return o && { key, size: o.body.length, contentType: o.contentType, etag: String(o.body.length), lastModified: new Date(0) };
  }

  async getStream(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    const body = await this.getBuffer(key);
    return Readable.from(range ? body.subarray(range.start, range.end === undefined ? undefined : range.end + 1) : body);
  }

  async getBuffer(key: string): Promise<Buffer> {
    const o = this.objects.get(key);
    if (!o) throw new ObjectNotFoundError(key);
    return o.body;
  }

  async getFile(key: string, filePath: string): Promise<void> {
    await writeFile(filePath, await this.getBuffer(key));
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const keys = [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    return Promise.all(keys.map(async (k) => (await this.stat(k))!));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = [...this.objects.keys()].filter((k) => k.startsWith(prefix));
    for (const k of keys) this.objects.delete(k);
    this.log.push(`delete ${prefix}`);
    return keys.length;
  }

  text(key: string): string | undefined {
    return this.objects.get(key)?.body.toString('utf8');
  }
}
