import { Inject, Injectable, Optional } from '@nestjs/common';
import { parseMasterPlaylist } from '@platform/media';
import { assetKeys, OBJECT_STORE, ObjectStore } from '@platform/storage';
import { DELIVERY_CLOCK, DeliveryClock } from './delivery-clock';
import { DeliveryTier, deliveryTierOf } from './delivery-tier';
import { parseMediaPlaylist } from './segment-durations';

/** What one served segment counts for: its rendition's tier and its media seconds. */
export interface SegmentFacts {
  tier: DeliveryTier;
  seconds: number;
}

interface FolderSegments {
  seconds: Map<string, number>;
  targetSeconds: number;
}

/** Segments remembered at most (over every playlist); the oldest playlists are forgotten first. */
const MAX_SEGMENTS = 200_000;
/** A playlist is read again for an unknown segment (a live one grows) at most this often. */
const RELOAD_MS = 2000;

/**
 * What the playback host knows of the renditions it serves, for metering: each folder's delivery
 * tier (from a master's RESOLUTION; a folder a master does not list as a variant, such as text
 * tracks, subtitles and alternate audio, is `null`: not counted) and each segment's EXTINF.
 * Learnt from the playlists the host serves anyway; a segment fetched before its playlists were
 * served by this process (another replica served them) is resolved by reading them from the store,
 * off the request's path.
 */
@Injectable()
export class SegmentCatalog {
  /** asset id → folder → tier, or null for a folder that is no variant. */
  private readonly tiers = new Map<string, Map<string, DeliveryTier | null>>();
  /** `${assetId}/${folder}` → its segments; insertion order is age. */
  private readonly segments = new Map<string, FolderSegments>();
  private segmentCount = 0;
  /** When each playlist was last read from the store by `resolve`. */
  private readonly readAt = new Map<string, number>();
  private readonly reading = new Map<string, Promise<void>>();
  /** The last few media playlists learnt, by `${assetId}/${variant}`. */
  private readonly lastMedia = new Map<string, string>();
  private readonly now: DeliveryClock;

  constructor(
    @Inject(OBJECT_STORE) private readonly store: Pick<ObjectStore, 'getBuffer'>,
    @Optional() @Inject(DELIVERY_CLOCK) now?: DeliveryClock,
  ) {
    this.now = now ?? Date.now;
  }

  /** A master as stored (`master.m3u8`, `live-edge.m3u8`): the tier of each variant folder. */
  learnMaster(assetId: string, text: string): void {
    const tiers = this.tiersOf(assetId);
    for (const variant of parseMasterPlaylist(text)) tiers.set(variant.name, deliveryTierOf(variant.width, variant.height));
  }

  /** A media playlist as stored: its segments' seconds; segments of another folder (`../live/…`) share its tier. */
  learnMedia(assetId: string, variant: string, text: string): void {
    const key = `${assetId}/${variant}`;
    if (this.lastMedia.get(key) === text && this.segments.has(key)) return; // the same VOD playlist for every viewer
    this.lastMedia.delete(key);
    this.lastMedia.set(key, text);
    if (this.lastMedia.size > 100) this.lastMedia.delete(this.lastMedia.keys().next().value!);
    const parsed = parseMediaPlaylist(text, variant);
    const tiers = this.tiers.get(assetId);
    for (const [folder, seconds] of parsed.byFolder) {
      const variantTier = tiers?.get(variant);
      if (folder !== variant && variantTier) tiers!.set(folder, variantTier);
      this.remember(`${assetId}/${folder}`, seconds, parsed.targetSeconds);
    }
  }

  /** The hot path: the facts when both are known, null when the folder is no variant, undefined when unknown. */
  find(assetId: string, folder: string, name: string): SegmentFacts | null | undefined {
    const tier = this.tiers.get(assetId)?.get(folder);
    if (tier === null) return null;
    const seconds = this.segments.get(`${assetId}/${folder}`)?.seconds.get(name);
    return tier !== undefined && seconds !== undefined ? { tier, seconds } : undefined;
  }

  /** `find`, reading what is missing from the store; a segment its playlist does not list counts as its target duration. */
  async resolve(assetId: string, folder: string, name: string): Promise<SegmentFacts | null> {
    if (this.tiers.get(assetId)?.get(folder) === undefined) await this.read(assetId, 'master.m3u8', (text) => this.learnMaster(assetId, text));
    const tiers = this.tiersOf(assetId);
    const tier = tiers.get(folder);
    if (!tier) {
      if (tiers.size > 0) tiers.set(folder, null); // the master is known and does not list it
      return null;
    }
    const key = `${assetId}/${folder}`;
    if (this.segments.get(key)?.seconds.get(name) === undefined) {
      await this.read(assetId, `${folder}/index.m3u8`, (text) => this.learnMedia(assetId, folder, text));
    }
    const known = this.segments.get(key);
    return { tier, seconds: known?.seconds.get(name) ?? known?.targetSeconds ?? 0 };
  }

  private tiersOf(assetId: string): Map<string, DeliveryTier | null> {
    let tiers = this.tiers.get(assetId);
    if (!tiers) {
      this.tiers.set(assetId, (tiers = new Map<string, DeliveryTier | null>()));
      // the tiers of an asset are a few entries: bound them by the number of assets with segments
      if (this.tiers.size > Math.max(1000, this.segments.size * 2)) this.tiers.delete(this.tiers.keys().next().value!);
    }
    return tiers;
  }

  private remember(key: string, seconds: Map<string, number>, targetSeconds: number): void {
    const known = this.segments.get(key);
    if (known) {
      // most recently learnt last; a live playlist slides, so what it listed before is kept too
      this.segments.delete(key);
      this.segments.set(key, known);
      const before = known.seconds.size;
      for (const [name, s] of seconds) known.seconds.set(name, s);
      this.segmentCount += known.seconds.size - before;
      if (targetSeconds) known.targetSeconds = targetSeconds;
    } else {
      this.segments.set(key, { seconds, targetSeconds });
      this.segmentCount += seconds.size;
    }
    while (this.segmentCount > MAX_SEGMENTS && this.segments.size > 1) {
      const [oldestKey, oldest] = this.segments.entries().next().value!;
      this.segments.delete(oldestKey);
      this.segmentCount -= oldest.seconds.size;
    }
  }

  /** Reads one stored playlist, once at a time and at most every RELOAD_MS; a missing one teaches nothing. */
  private async read(assetId: string, path: string, learn: (text: string) => void): Promise<void> {
    const key = assetKeys.hls(assetId, path);
    const pending = this.reading.get(key);
    if (pending) return pending;
    if (this.now() - (this.readAt.get(key) ?? -Infinity) < RELOAD_MS) return;
    const reading = this.store
      .getBuffer(key)
      .then((buffer) => learn(buffer.toString('utf8')))
      .catch(() => undefined)
      .finally(() => {
        this.reading.delete(key);
        this.readAt.delete(key);
        this.readAt.set(key, this.now());
        if (this.readAt.size > 10_000) this.readAt.delete(this.readAt.keys().next().value!);
      });
    this.reading.set(key, reading);
    return reading;
  }
}
