import { Inject, Injectable } from '@nestjs/common';
import { firstPts, segmentVideo, topVariant } from '@platform/media';
import { AssetMedia, RenditionTimeline } from './asset-media';
import { animatedGeometry, FrameGeometry } from './image-geometry';
import { IMAGE_TYPES, ImageJob, ImageSubject, isLive } from './image-job';
import { animatedSpan, chooseVariant, imageCacheKey, millis, segmentAt, TimedSegment, VideoVariant } from './image-plan';
import { ImageRenderer } from './image-renderer';
import { AnimatedRequest } from './image-request';
import { buildAnimatedArgs } from './media/image-args';

const TICKS = 90_000;

/**
 * `animated.{gif,webp}`: the frames from `start` to `end` of the smallest rendition large enough, read from
 * the segments covering the span (decoded from the first one's start), resampled to `fps`.
 */
@Injectable()
export class AnimatedImages {
  constructor(
    @Inject(AssetMedia) private readonly media: AssetMedia,
    @Inject(ImageRenderer) private readonly renderer: ImageRenderer,
  ) {}

  async job(subject: ImageSubject, request: AnimatedRequest): Promise<ImageJob> {
    const variants = await this.media.videoVariants(subject);
    const geometry = animatedGeometry(topVariant(variants) as VideoVariant, request);
    const rendition = await this.media.timeline(subject.assetId, chooseVariant(variants, geometry));
    const span = animatedSpan(request, rendition.duration);
    return {
      key: imageCacheKey(
        subject.assetId,
        ['animated', rendition.variant.name, millis(span.start), millis(span.end), request.fps, JSON.stringify(geometry)],
        request.format,
      ),
      contentType: IMAGE_TYPES[request.format],
      lifetime: isLive(subject) ? 'live' : 'immutable',
      make: () => this.make(subject.assetId, rendition, span, geometry, request),
    };
  }

  private async make(
    assetId: string,
    rendition: RenditionTimeline,
    span: { start: number; end: number },
    geometry: FrameGeometry,
    request: AnimatedRequest,
  ): Promise<Buffer> {
    const first = segmentAt(rendition.segments, span.start)!;
    const last = segmentAt(rendition.segments, Math.max(span.start, span.end - 0.001))!;
    const covering = rendition.segments.filter((s) => s.start >= first.start && s.start <= last.start);
    const bytes = await Promise.all(covering.map((s) => this.media.segment(assetId, rendition, s)));
    // each end of the span on the segments' own clock (a discontinuity between them keeps both right)
    const clock = (segment: TimedSegment, data: Buffer, seconds: number) => (firstPts(segmentVideo(data).units) ?? 0) / TICKS + (seconds - segment.start);
    const from = clock(first, bytes[0], span.start);
    const to = clock(last, bytes[bytes.length - 1], span.end);
    return this.renderer.render(buildAnimatedArgs({ from, to }, geometry, request.fps, request.format), Buffer.concat(bytes));
  }
}
