import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { cutPicture, firstPts, shownAt, topVariant } from '@platform/media';
import { PlaybackError } from '../playback-host/playback-error';
import { AssetMedia, RenditionTimeline } from './asset-media';
import { FrameGeometry, thumbnailGeometry } from './image-geometry';
import { IMAGE_TYPES, ImageJob, ImageSubject, isLive } from './image-job';
import { chooseVariant, imageCacheKey, millis, segmentAt, thumbnailTime, ThumbnailTime, TimedSegment, VideoVariant } from './image-plan';
import { ImageRenderer } from './image-renderer';
import { ThumbnailFormat, ThumbnailRequest } from './image-request';
import { buildCoverFrameArgs, buildPictureArgs, buildRawPictureArgs, PictureSource } from './media/image-args';
import { busiestWindow, cropRgb } from './smart-crop';

const TICKS = 90_000;

/**
 * `thumbnail.{jpg,png,webp}`: one frame of the smallest rendition large enough, decoded from the IDR before
 * it in its segment (only the pictures it depends on), shaped and encoded by one ffmpeg run (smartcrop: two,
 * the window chosen between them).
 */
@Injectable()
export class Thumbnails {
  constructor(
    @Inject(AssetMedia) private readonly media: AssetMedia,
    @Inject(ImageRenderer) private readonly renderer: ImageRenderer,
  ) {}

  async job(subject: ImageSubject, request: ThumbnailRequest): Promise<ImageJob> {
    if (request.latest) checkLatest(subject);
    const variants = await this.media.videoVariants(subject);
    const geometry = thumbnailGeometry(topVariant(variants) as VideoVariant, request);
    const rendition = await this.media.timeline(subject.assetId, chooseVariant(variants, geometry));
    const when = thumbnailTime(request, { duration: rendition.duration, thumbnailTime: subject.owner.thumbnailTime, live: subject.liveEdge });
    const segment = 'edge' in when ? rendition.segments[rendition.segments.length - 1] : segmentAt(rendition.segments, when.at)!;
    const moment = 'edge' in when ? `edge:${segment.uri}` : millis(when.at);
    return {
      key: imageCacheKey(subject.assetId, ['thumbnail', rendition.variant.name, moment, JSON.stringify(geometry)], request.format),
      contentType: IMAGE_TYPES[request.format],
      lifetime: isLive(subject) ? 'live' : request.time === undefined ? 'default-time' : 'immutable',
      make: () => this.make(subject.assetId, rendition, segment, when, geometry, request.format),
    };
  }

  private async make(
    assetId: string,
    rendition: RenditionTimeline,
    segment: TimedSegment,
    when: ThumbnailTime,
    geometry: FrameGeometry,
    format: ThumbnailFormat,
  ): Promise<Buffer> {
    const video = await this.media.segmentVideo(assetId, rendition, segment);
    if (video.units.length === 0) throw new PlaybackError(HttpStatus.NOT_FOUND, `Segment ${segment.uri} has no picture`);
    const pts = 'edge' in when ? Math.max(...video.units.map((u) => u.pts)) : firstPts(video.units)! + Math.round((when.at - segment.start) * TICKS);
    const cut = cutPicture(video.units, pts);
    const source: PictureSource = cut ? { h264: cut.outputIndexes } : { ts: [video.units[shownAt(video.units, pts)].pts / TICKS] };
    const input = cut ? cut.stream : video.bytes;
    if (geometry.fit !== 'smartcrop') return this.renderer.render(buildPictureArgs(source, geometry, format), input);
    return this.renderer.renderThrough({ args: buildCoverFrameArgs(source, geometry), input }, buildRawPictureArgs(geometry.output, geometry, format), (rgb) =>
      cropRgb(rgb, geometry.scaled, geometry.output, busiestWindow(rgb, geometry.scaled, geometry.output)),
    );
  }
}

/** `latest=true` is for a live stream's playback id, while it is live (Mux: "can only be used with live streams"). */
function checkLatest(subject: ImageSubject): void {
  if (subject.owner.type !== 'live_stream') throw PlaybackError.invalid(["latest: only a live stream's playback ID has a latest thumbnail"]);
  if (!subject.liveEdge) {
    throw new PlaybackError(
      HttpStatus.PRECONDITION_FAILED,
      `Live stream of playback ID ${subject.playbackId} is not live: latest=true needs an ongoing live stream`,
    );
  }
}
