import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { assetKeys, ObjectNotFoundError, ObjectStore, parseMediaPlaylist, playlistSeconds } from '@platform/storage';
import { parseMasterPlaylist, StoredVariant } from '@platform/media';

/** A stored rendition copied into the task's folder: its playlist (ffmpeg's input) and how long it plays. */
export interface LocalVariant {
  playlist: string;
  seconds: number;
}

/**
 * The asset's stored HLS as a task reads it: the renditions its master lists, whether the stream-copied
 * `source` rendition was kept, and each rendition fetched once into the task's folder (hard links on the
 * filesystem store).
 */
export class StoredHls {
  private readonly fetched = new Map<string, Promise<LocalVariant>>();

  constructor(
    private readonly store: ObjectStore,
    private readonly assetId: string,
    private readonly dir: string,
    private readonly signal: AbortSignal,
  ) {}

  /** The renditions of `hls/master.m3u8` (an empty list when it has none). */
  async variants(): Promise<StoredVariant[]> {
    return parseMasterPlaylist((await this.store.getBuffer(assetKeys.hls(this.assetId, 'master.m3u8'))).toString('utf8'));
  }

  /** The quick `source` rendition of a standard input stays stored after the ladder replaced it in the master. */
  async sourceKept(): Promise<boolean> {
    return (await this.store.stat(assetKeys.hls(this.assetId, 'source/index.m3u8'))) !== undefined;
  }

  fetch(variant: string): Promise<LocalVariant> {
    let pending = this.fetched.get(variant);
    if (!pending) {
      pending = this.copy(variant);
      this.fetched.set(variant, pending);
    }
    return pending;
  }

  private async copy(variant: string): Promise<LocalVariant> {
    const folder = join(this.dir, 'hls', variant);
    await mkdir(folder, { recursive: true });
    const text = (await this.store.getBuffer(assetKeys.hls(this.assetId, `${variant}/index.m3u8`))).toString('utf8');
    const segments = parseMediaPlaylist(text);
    for (const segment of segments) {
      this.signal.throwIfAborted();
      if (!/^[A-Za-z0-9_.-]+$/.test(segment.uri)) throw new Error(`${variant}/index.m3u8 lists ${segment.uri}, not a file beside it`);
      try {
        await this.store.getFile(assetKeys.hls(this.assetId, `${variant}/${segment.uri}`), join(folder, segment.uri));
      } catch (err) {
        if (err instanceof ObjectNotFoundError) throw new Error(`${variant}/${segment.uri} is listed but not stored`, { cause: err });
        throw err;
      }
    }
    const playlist = join(folder, 'index.m3u8');
    await this.store.getFile(assetKeys.hls(this.assetId, `${variant}/index.m3u8`), playlist);
    return { playlist, seconds: playlistSeconds(segments) };
  }
}
