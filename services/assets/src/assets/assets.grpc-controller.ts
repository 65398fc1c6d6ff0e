import { Controller, Inject } from '@nestjs/common';
import { assets, common } from '@platform/proto';
import { PlaybackIdsService } from '../playback-ids/playback-ids.service';
import { TracksService } from '../tracks/tracks.service';
import { AssetsService } from './assets.service';

@Controller()
@assets.AssetsServiceControllerMethods()
export class AssetsGrpcController implements assets.AssetsServiceController {
  constructor(
    @Inject(AssetsService) private readonly assets: AssetsService,
    @Inject(PlaybackIdsService) private readonly playbackIds: PlaybackIdsService,
    @Inject(TracksService) private readonly tracks: TracksService,
  ) {}

  createAsset(request: assets.CreateAssetRequest): Promise<assets.Asset> {
    return this.assets.create(request);
  }

  checkAssetSettings(request: assets.CreateAssetRequest): common.Empty {
    this.assets.checkSettings(request);
    return {};
  }

  getAsset(request: common.IdRequest): Promise<assets.Asset> {
    return this.assets.get(request.id);
  }

  listAssets(request: assets.ListAssetsRequest): Promise<assets.AssetList> {
    return this.assets.list(request);
  }

  updateAsset(request: assets.UpdateAssetRequest): Promise<assets.Asset> {
    return this.assets.update(request);
  }

  deleteAsset(request: common.IdRequest): Promise<common.Empty> {
    return this.assets.delete(request.id).then(() => ({}));
  }

  getInputInfo(request: common.IdRequest): Promise<assets.InputInfoList> {
    return this.assets.getInputInfo(request.id);
  }

  createPlaybackId(request: assets.CreatePlaybackIdRequest): Promise<assets.PlaybackId> {
    return this.playbackIds.create(request);
  }

  getPlaybackId(request: assets.AssetPlaybackIdRequest): Promise<assets.PlaybackId> {
    return this.playbackIds.get(request);
  }

  deletePlaybackId(request: assets.AssetPlaybackIdRequest): Promise<common.Empty> {
    return this.playbackIds.delete(request).then(() => ({}));
  }

  deleteThumbnailTime(request: common.IdRequest): Promise<common.Empty> {
    return this.assets.deleteThumbnailTime(request.id).then(() => ({}));
  }

  lookupPlaybackId(request: common.IdRequest): Promise<assets.PlaybackIdOwner> {
    return this.playbackIds.lookup(request.id);
  }

  createTrack(request: assets.CreateTrackRequest): Promise<assets.Track> {
    return this.tracks.create(request);
  }

  deleteTrack(request: assets.TrackRequest): Promise<common.Empty> {
    return this.tracks.delete(request).then(() => ({}));
  }

  generateSubtitles(request: assets.GenerateSubtitlesRequest): Promise<assets.TrackList> {
    return this.tracks.generateSubtitles(request);
  }
}
