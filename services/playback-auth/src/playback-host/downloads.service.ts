import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { assetKeys, OBJECT_STORE, ObjectStore } from '@platform/storage';
import { contentDisposition } from './content-disposition';
import { DownloadLookup } from './download-lookup';
import { PlaybackAccessService, PlaybackRequest } from './playback-access.service';
import { PlaybackError } from './playback-error';
import { PlaybackReply } from './playback-host.service';
import { FileRequestHeaders, storedFileReply } from './stored-object-reply';

/** A static rendition may be replaced (mp4_support none, then standard again): caches keep it briefly. */
const STATIC_MAX_AGE = 60;

/**
 * Downloadable files of the playback host: static renditions at `/{playback_id}/{name}`, under the
 * playback id's rules as HLS (public, or signed with the same token, restrictions applied), served only
 * once the assets service says they are ready; the master MP4 at `/master/{token}/master.mp4`, for
 * whoever has its URL while the assets service says it is valid.
 */
@Injectable()
export class DownloadsService {
  constructor(
    @Inject(PlaybackAccessService) private readonly access: PlaybackAccessService,
    @Inject(DownloadLookup) private readonly lookup: DownloadLookup,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async staticRendition(request: PlaybackRequest, name: string, headers: FileRequestHeaders, head: boolean, download?: string): Promise<PlaybackReply> {
    const notReady = () => new PlaybackError(HttpStatus.NOT_FOUND, `Static rendition ${name} of playback ID ${request.playbackId} not found (or not ready)`);
    const access = await this.access.authorize(request).catch((err: unknown) => {
      // an asset that is not ready has no ready files either
      throw err instanceof PlaybackError && err.getStatus() === Number(HttpStatus.PRECONDITION_FAILED) ? notReady() : err;
    });
    if (!(await this.lookup.staticRendition(access.assetId, name))) throw notReady();
    const file = {
      key: assetKeys.staticRendition(access.assetId, name),
      name,
      cacheControl: `${access.signed ? 'private' : 'public'}, max-age=${STATIC_MAX_AGE}`,
      headers: { 'content-disposition': contentDisposition(name, download) },
    };
    return storedFileReply(this.store, file, headers, head, notReady);
  }

  /** The URL is the credential: no token, Referer or User-Agent rule; never cached (it stops working). */
  async master(token: string, headers: FileRequestHeaders, head: boolean, download?: string): Promise<PlaybackReply> {
    const gone = () => new PlaybackError(HttpStatus.NOT_FOUND, 'Master not found: the URL expired or master access was removed');
    const grant = await this.lookup.master(token);
    if (!grant) throw gone();
    const file = {
      key: assetKeys.master(grant.asset_id),
      name: 'master.mp4',
      cacheControl: 'private, no-store',
      headers: { 'content-disposition': contentDisposition('master.mp4', download, 'attachment') },
    };
    return storedFileReply(this.store, file, headers, head, gone);
  }
}
