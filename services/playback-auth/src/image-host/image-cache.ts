import { Inject, Injectable, Logger } from '@nestjs/common';
import { OBJECT_STORE, ObjectNotFoundError, ObjectStore } from '@platform/storage';

/** An image as served: its bytes, and whether it was made for this request. */
export interface CachedImage {
  body: Buffer;
  made: boolean;
}

/**
 * Made images, kept in the object store under their asset (`assets/{id}/images/…`, so deleting the asset
 * deletes them) by a key naming everything that decides their bytes. A request for an image being made
 * waits for that making instead of starting another (one ffmpeg for a burst of equal requests). The answer
 * does not wait for the store's write; the image stays in memory until it is written.
 */
@Injectable()
export class ImageCache {
  private readonly logger = new Logger('ImageHost');
  private readonly inFlight = new Map<string, Promise<Buffer>>();

  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  async get(key: string, contentType: string, make: () => Promise<Buffer>): Promise<CachedImage> {
    const pending = this.inFlight.get(key);
    if (pending) return { body: await pending, made: false };
    const stored = await this.read(key);
    if (stored) return { body: stored, made: false };
    return { body: await this.make(key, contentType, make), made: true };
  }

  private make(key: string, contentType: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const again = this.inFlight.get(key);
    if (again) return again;
    const made = make();
    this.inFlight.set(key, made);
    made.then(
      (body) => {
        this.store
          .putBuffer(key, body, contentType)
          .catch((err: unknown) => this.logger.warn(`could not keep image ${key}: ${err instanceof Error ? err.message : String(err)}`))
          .finally(() => this.inFlight.delete(key));
      },
      () => this.inFlight.delete(key),
    );
    return made;
  }

  private async read(key: string): Promise<Buffer | undefined> {
    try {
      return await this.store.getBuffer(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    }
  }
}
