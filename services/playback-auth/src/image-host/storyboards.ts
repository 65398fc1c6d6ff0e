import { Inject, Injectable, Logger } from '@nestjs/common';
import { cutPictures, segmentVideo, topVariant } from '@platform/media';
import { AssetMedia, RenditionTimeline } from './asset-media';
import { ImageCache } from './image-cache';
import { Size, tileSize } from './image-geometry';
import { IMAGE_TYPES, ImageJob, ImageSubject, isLive } from './image-job';
import { chooseVariant, imageCacheKey, millis, segmentAt, storyboardSpan, TimedSegment, VideoVariant } from './image-plan';
import { ImageRenderer } from './image-renderer';
import { StoryboardRequest, ThumbnailFormat } from './image-request';
import { buildStoryboardArgs, PictureSource } from './media/image-args';
import { storyboardLayout, StoryboardLayout, storyboardTileCount, tileTargets } from './storyboard-layout';
import { pickTiles, SegmentPictures, TilePick } from './storyboard-tiles';

/** Segments fetched at once while a storyboard is planned (100 tiles of a long asset: 100 segments). */
const FETCH_CONCURRENCY = 8;

type LoadedSegment = SegmentPictures & { bytes: Buffer };

/** A storyboard planned: its rendition, span and tile size, and where its sheet and layout are kept. */
interface StoryboardPlan {
  subject: ImageSubject;
  rendition: RenditionTimeline;
  span: { start: number; end: number };
  tile: Size;
  /** Names the rendition and span, which decide the tiles. */
  id: string;
}

/**
 * `storyboard.{jpg,png,webp}`: 50 tiles (100 from 15 minutes on) of the smallest rendition at least 256 px
 * wide, evenly spaced over the asset, sitting on key frames where one is near (one picture decoded each),
 * all decoded by one ffmpeg run and laid 5 to a row. `storyboard.{vtt,json}` describe the same tiles: the
 * layout is kept beside the sheet, so each is planned once, and planning it makes the sheet too.
 */
@Injectable()
export class Storyboards {
  private readonly logger = new Logger('ImageHost');

  constructor(
    @Inject(AssetMedia) private readonly media: AssetMedia,
    @Inject(ImageRenderer) private readonly renderer: ImageRenderer,
    @Inject(ImageCache) private readonly cache: ImageCache,
  ) {}

  async plan(subject: ImageSubject, request: StoryboardRequest): Promise<StoryboardPlan> {
    const variants = await this.media.videoVariants(subject);
    const tile = tileSize(topVariant(variants) as VideoVariant);
    const rendition = await this.media.timeline(subject.assetId, chooseVariant(variants, { scaled: tile, rotate: 0 }));
    const span = storyboardSpan(request, rendition.duration);
    return { subject, rendition, span, tile, id: `${rendition.variant.name}|${millis(span.start)}|${millis(span.end)}` };
  }

  /**
   * The tiles' layout (what VTT and JSON describe), kept as JSON. Making it starts making the sheet of
   * `sheetFormat` from the same tiles (a player asks for the sheet once it has the VTT), so the segments
   * are read once for both.
   */
  layoutJob(plan: StoryboardPlan, sheetFormat: ThumbnailFormat): ImageJob {
    return {
      key: imageCacheKey(plan.subject.assetId, ['storyboard-layout', plan.id], 'json'),
      contentType: IMAGE_TYPES.json,
      lifetime: isLive(plan.subject) ? 'live' : 'immutable',
      make: async () => {
        const picks = await this.picks(plan);
        const sheet = this.sheetJob(plan, sheetFormat, picks);
        this.cache
          .get(sheet.key, sheet.contentType, () => sheet.make())
          .catch((err: unknown) => this.logger.warn(`storyboard sheet ${sheet.key} not made: ${err instanceof Error ? err.message : String(err)}`));
        return Buffer.from(JSON.stringify(this.layoutOf(plan, picks)));
      },
    };
  }

  /** The sprite sheet; `picks` when its tiles were chosen already. */
  sheetJob(plan: StoryboardPlan, format: ThumbnailFormat, picks?: Array<TilePick<LoadedSegment>>): ImageJob {
    return {
      key: imageCacheKey(plan.subject.assetId, ['storyboard', plan.id], format),
      contentType: IMAGE_TYPES[format],
      lifetime: isLive(plan.subject) ? 'live' : 'immutable',
      make: async () => this.sheet(plan, format, picks ?? (await this.picks(plan))),
    };
  }

  private async sheet(plan: StoryboardPlan, format: ThumbnailFormat, picks: Array<TilePick<LoadedSegment>>): Promise<Buffer> {
    const layout = this.layoutOf(plan, picks);
    const grid = { columns: layout.columns, rows: layout.rows };
    const cuts = cutPictures(picks);
    if (cuts) return this.renderer.render(buildStoryboardArgs({ h264: cuts.outputIndexes }, plan.tile, grid, format), cuts.stream);
    // not cuttable (no IDR before a tile in its segment): the tiles' segments decoded whole
    const segments = [...new Set(picks.map((p) => p.source))];
    const source: PictureSource = { ts: picks.map((p) => p.pts / 90_000) };
    return this.renderer.render(buildStoryboardArgs(source, plan.tile, grid, format), Buffer.concat(segments.map((s) => s.bytes)));
  }

  private layoutOf(plan: StoryboardPlan, picks: readonly TilePick[]): StoryboardLayout {
    return storyboardLayout(
      plan.tile,
      picks.map((p) => p.seconds - plan.span.start),
      plan.span.end - plan.span.start,
    );
  }

  /** The picture of every tile, from the segments holding the tiles' times (fetched a few at a time). */
  private async picks(plan: StoryboardPlan): Promise<Array<TilePick<LoadedSegment>>> {
    const { rendition, span, subject } = plan;
    const count = storyboardTileCount(span.end - span.start);
    const targets = tileTargets(span, count);
    const holding = targets.map((t) => segmentAt(rendition.segments, t)!);
    const loaded = new Map<TimedSegment, LoadedSegment>();
    const needed = [...new Set(holding)];
    for (let i = 0; i < needed.length; i += FETCH_CONCURRENCY) {
      await Promise.all(
        needed.slice(i, i + FETCH_CONCURRENCY).map(async (segment) => {
          const bytes = await this.media.segment(subject.assetId, rendition, segment);
          loaded.set(segment, { segment, units: segmentVideo(bytes).units, bytes });
        }),
      );
    }
    const pictures = (seconds: number) => loaded.get(segmentAt(rendition.segments, seconds)!)!;
    const interval = (span.end - span.start) / count;
    return pickTiles(targets, pictures, interval);
  }
}
