import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { parseMasterPlaylist, segmentVideo, SegmentVideo } from '@platform/media';
import { assetKeys, OBJECT_STORE, ObjectNotFoundError, ObjectStore, parseMediaPlaylist } from '@platform/storage';
import { PlaybackError } from '../playback-host/playback-error';
import { ImageSubject, isLive } from './image-job';
import { TimedSegment, timedSegments, VideoVariant } from './image-plan';

const NO_MEDIA_YET = 'The video has no media yet: try again once its first segment is stored';

/** A rendition's segments on the asset's timeline. */
export interface RenditionTimeline {
  variant: VideoVariant;
  segments: TimedSegment[];
  duration: number;
}

/**
 * What images are made of: an asset's stored HLS renditions (`assets/{id}/hls/`, as the transcoder or the
 * live ingest wrote them), read from the object store. A live recording's master lists its recording so
 * far (`live/`), whose last segment is the live edge.
 */
@Injectable()
export class AssetMedia {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  /**
   * The subject's video renditions; 404 when it has none (audio only). No master yet: 412 for a live
   * recording (its first segment is still being made), else 404.
   */
  async videoVariants(subject: Pick<ImageSubject, 'assetId' | 'playbackId' | 'liveEdge' | 'owner'>): Promise<VideoVariant[]> {
    const { playbackId } = subject;
    const master = await this.text(assetKeys.hls(subject.assetId, 'master.m3u8'), () =>
      isLive(subject) ? new PlaybackError(HttpStatus.PRECONDITION_FAILED, NO_MEDIA_YET) : PlaybackError.notFound(playbackId),
    );
    const video = parseMasterPlaylist(master).filter((v): v is VideoVariant => v.width !== undefined && v.height !== undefined);
    if (video.length === 0) throw new PlaybackError(HttpStatus.NOT_FOUND, `Playback ID ${playbackId} has no video to take images from`);
    return video;
  }

  async timeline(assetId: string, variant: VideoVariant): Promise<RenditionTimeline> {
    const playlist = await this.text(assetKeys.hls(assetId, `${variant.name}/index.m3u8`), () => missing(`${variant.name}/index.m3u8`));
    const { segments, duration } = timedSegments(parseMediaPlaylist(playlist));
    if (segments.length === 0)
      throw new PlaybackError(HttpStatus.PRECONDITION_FAILED, 'The video has no media yet: try again once its first segment is stored');
    return { variant, segments, duration };
  }

  /** A segment's bytes. */
  segment(assetId: string, rendition: RenditionTimeline, segment: TimedSegment): Promise<Buffer> {
    const path = `${rendition.variant.name}/${segment.uri}`;
    return this.bytes(assetKeys.hls(assetId, path), () => missing(path));
  }

  /** A segment's video access units. */
  async segmentVideo(assetId: string, rendition: RenditionTimeline, segment: TimedSegment): Promise<SegmentVideo & { bytes: Buffer }> {
    const bytes = await this.segment(assetId, rendition, segment);
    return { ...segmentVideo(bytes), bytes };
  }

  private async text(key: string, notFound: () => PlaybackError): Promise<string> {
    return (await this.bytes(key, notFound)).toString('utf8');
  }

  private async bytes(key: string, notFound: () => PlaybackError): Promise<Buffer> {
    try {
      return await this.store.getBuffer(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw notFound();
      throw err;
    }
  }
}

function missing(path: string): PlaybackError {
  return new PlaybackError(HttpStatus.NOT_FOUND, `Media ${path} not found`);
}
