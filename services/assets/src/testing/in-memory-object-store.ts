import { writeFile } from 'node:fs/promises';
import { ObjectInfo, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { Readable } from 'node:stream';

/** The object-store port kept in memory; `failDeletes` makes deletePrefix throw. */
export class InMemoryObjectStore implements ObjectStore {
  readonly objects = new Map<string, Buffer>();
  failDeletes = false;

  async putFile(): Promise<void> {
    throw new Error('putFile is not used by the assets service');
  }

  async putBuffer(key: string, body: Buffer | string): Promise<void> {
    this.objects.set(key, Buffer.from(body));
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    const body = this.objects.get(key);
    return body ? info(key, body) : undefined;
  }

  async getStream(key: string): Promise<NodeJS.ReadableStream> {
    return Readable.from([await this.getBuffer(key)]);
  }

  async getBuffer(key: string): Promise<Buffer> {
    const body = this.objects.get(key);
    if (!body) throw new ObjectNotFoundError(key);
    return body;
  }

  async getFile(key: string, filePath: string): Promise<void> {
    await writeFile(filePath, await this.getBuffer(key));
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    return [...this.objects].filter(([key]) => key.startsWith(prefix)).map(([key, body]) => info(key, body));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (this.failDeletes) throw new Error('object store unavailable');
    const keys = [...this.objects.keys()].filter((key) => key.startsWith(prefix));
    keys.forEach((key) => this.objects.delete(key));
    return keys.length;
  }
}

function info(key: string, body: Buffer): ObjectInfo {
  return { key, size: body.length, contentType: 'application/octet-stream', etag: String(body.length), lastModified: new Date(0) };
}
