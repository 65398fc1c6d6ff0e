import { createHash } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { PlaybackAccessService, PlaybackRequest } from '../playback-host/playback-access.service';
import { PlaybackError } from '../playback-host/playback-error';
import { PlaybackReply } from '../playback-host/playback-host.service';
import { AnimatedImages } from './animated-images';
import { ImageCache } from './image-cache';
import { IMAGE_TYPES, ImageJob, ImageLifetime, ImageSubject } from './image-job';
import { IMAGE_FILES, imageFile, ImageRequest, ImageRequestError, mergeClaims, parseImageRequest, StoryboardRequest } from './image-request';
import { StoryboardLayout, storyboardJson, storyboardVtt } from './storyboard-layout';
import { Storyboards } from './storyboards';
import { Thumbnails } from './thumbnails';

/** An image request as the controller reads it. */
export interface ImageHttpRequest extends PlaybackRequest {
  file: string;
  /** The query's single-valued parameters (the token among them). */
  query: Record<string, string>;
  ifNoneMatch?: string;
  /** Where the request was sent (the base of the absolute URLs storyboard VTT/JSON hand out). */
  host?: string;
  forwardedHost?: string;
  forwardedProto?: string;
}

/**
 * The image host at {image_url} (Mux's image.mux.com paths): the playback id checked as for video (its token
 * for the file's audience: `t`, `g`, `s`), the parameters read (a token's claims win over the query), the
 * image taken from the store when it was made before, else made, kept and served.
 */
@Injectable()
export class ImageHostService {
  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(PlaybackAccessService) private readonly access: PlaybackAccessService,
    @Inject(ImageCache) private readonly cache: ImageCache,
    @Inject(Thumbnails) private readonly thumbnails: Thumbnails,
    @Inject(AnimatedImages) private readonly animated: AnimatedImages,
    @Inject(Storyboards) private readonly storyboards: Storyboards,
  ) {}

  async serve(http: ImageHttpRequest): Promise<PlaybackReply> {
    const file = imageFile(http.file);
    if (!file) throw new PlaybackError(HttpStatus.NOT_FOUND, `Not an image URL: ${http.file}`);
    const allowed = await this.access.authorizeImage(http, IMAGE_FILES[file.kind].audience);
    const request = parsed(() => parseImageRequest(file, mergeClaims(http.query, allowed.claims)));
    const subject: ImageSubject = {
      playbackId: http.playbackId,
      assetId: allowed.access.assetId,
      owner: allowed.owner,
      liveEdge: allowed.access.liveEdge === true,
      signed: allowed.access.signed,
    };
    return this.answer(subject, request, http);
  }

  private async answer(subject: ImageSubject, request: ImageRequest, http: ImageHttpRequest): Promise<PlaybackReply> {
    switch (request.kind) {
      case 'thumbnail':
        return this.imageReply(subject, await this.thumbnails.job(subject, request), http);
      case 'animated':
        return this.imageReply(subject, await this.animated.job(subject, request), http);
      case 'storyboard': {
        const plan = await this.storyboards.plan(subject, request);
        if (request.format !== 'vtt' && request.format !== 'json') return this.imageReply(subject, this.storyboards.sheetJob(plan, request.format), http);
        const layoutJob = this.storyboards.layoutJob(plan, request.imageFormat);
        const layout = JSON.parse(
          (await this.cache.get(layoutJob.key, layoutJob.contentType, () => layoutJob.make())).body.toString('utf8'),
        ) as StoryboardLayout;
        return this.storyboardText(subject, request, layout, layoutJob.lifetime, http);
      }
    }
  }

  private async imageReply(subject: ImageSubject, job: ImageJob, http: ImageHttpRequest): Promise<PlaybackReply> {
    const etag = `"${createHash('sha256').update(job.key).digest('base64url').slice(0, 27)}"`;
    const headers = { etag, 'cache-control': cacheControl(job.lifetime, subject.signed) };
    if (http.ifNoneMatch !== undefined && http.ifNoneMatch.split(',').some((t) => t.trim() === etag)) return { status: 304, headers };
    const image = await this.cache.get(job.key, job.contentType, () => job.make());
    return {
      status: 200,
      headers: { ...headers, 'content-type': job.contentType, 'content-length': String(image.body.length), 'x-image-cache': image.made ? 'miss' : 'hit' },
      body: image.body,
    };
  }

  /**
   * `storyboard.vtt` / `.json`: the kept layout with the sheet's absolute URL (Mux's shape), which carries the
   * request's token (a storyboard token works for the sheet too) and its asset_start/end_time.
   */
  private storyboardText(
    subject: ImageSubject,
    request: StoryboardRequest,
    layout: StoryboardLayout,
    lifetime: ImageLifetime,
    http: ImageHttpRequest,
  ): PlaybackReply {
    const query = new URLSearchParams();
    for (const name of ['token', 'asset_start_time', 'asset_end_time']) if (http.query[name] !== undefined) query.set(name, http.query[name]);
    const sheetUrl = `${this.imageBase(http)}/${subject.playbackId}/storyboard.${request.imageFormat}${query.size > 0 ? `?${query.toString()}` : ''}`;
    const text = request.format === 'vtt' ? storyboardVtt(layout, sheetUrl) : JSON.stringify(storyboardJson(layout, sheetUrl));
    const body = Buffer.from(text, 'utf8');
    return {
      status: 200,
      headers: {
        'content-type': IMAGE_TYPES[request.format],
        'content-length': String(body.length),
        'cache-control': cacheControl(lifetime, subject.signed),
        // the URLs in it name the host the request was sent to
        ...(this.config.images.baseUrl ? {} : { vary: 'Host, X-Forwarded-Host, X-Forwarded-Proto' }),
      },
      body,
    };
  }

  /** IMAGE_BASE_URL, else the scheme and host the request came to (through a proxy: its X-Forwarded-*). */
  private imageBase(http: ImageHttpRequest): string {
    if (this.config.images.baseUrl) return this.config.images.baseUrl;
    const proto = firstValue(http.forwardedProto);
    const host = firstValue(http.forwardedHost) ?? http.host;
    return `${proto === 'https' ? 'https' : 'http'}://${host && HOST.test(host) ? host : `localhost:${this.config.images.port}`}`;
  }
}

/** A host name or address with an optional port: nothing else goes into a URL handed out. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function firstValue(header: string | undefined): string | undefined {
  return header?.split(',')[0]?.trim() || undefined;
}

function parsed(parse: () => ImageRequest): ImageRequest {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ImageRequestError) throw PlaybackError.invalid(err.messages);
    throw err;
  }
}

/**
 * Images of a time chosen in the request never change: a year, immutable. A thumbnail of the default time
 * changes with the asset's thumbnail_time: five minutes. Live media changes as it is recorded: two seconds.
 * A signed playback id's images are `private`.
 */
export function cacheControl(lifetime: ImageLifetime, signed: boolean): string {
  const scope = signed ? 'private' : 'public';
  if (lifetime === 'immutable') return `${scope}, max-age=31536000, immutable`;
  if (lifetime === 'default-time') return `${scope}, max-age=300`;
  return `${scope}, max-age=2`;
}
