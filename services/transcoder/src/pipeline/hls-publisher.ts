import { buildMasterPlaylist, VariantStream } from '@platform/media';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { assetKeys, ObjectStore } from '@platform/storage';

/**
 * Puts HLS files of an asset into the object store. A variant's segments go first and its playlist
 * last; the master playlist is written separately, once every variant it lists is stored, because it
 * is what makes them visible. A redone job writes the same keys again.
 */
export class HlsPublisher {
  constructor(
    private readonly store: ObjectStore,
    private readonly assetId: string,
    private readonly concurrency: number,
  ) {}

  /** Uploads `folder` (index.m3u8 and its .ts segments) as variant `name`. */
  async putVariant(folder: string, name: string, signal: AbortSignal): Promise<void> {
    const files = await readdir(folder);
    const segments = files.filter((f) => f.endsWith('.ts')).sort();
    const key = (file: string) => assetKeys.hls(this.assetId, `${name}/${file}`);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < segments.length; i = next++) {
        signal.throwIfAborted();
        await this.store.putFile(key(segments[i]), join(folder, segments[i]));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, segments.length) }, worker));
    signal.throwIfAborted();
    await this.store.putFile(key('index.m3u8'), join(folder, 'index.m3u8'));
  }

  async putMaster(variants: VariantStream[]): Promise<void> {
    await this.store.putBuffer(assetKeys.hls(this.assetId, 'master.m3u8'), buildMasterPlaylist(variants));
  }
}
