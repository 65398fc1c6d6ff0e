import { Controller, Inject } from '@nestjs/common';
import { assets, common, live } from '@platform/proto';
import { LiveStreamPlaybackIdsService } from './live-stream-playback-ids.service';
import { LiveStreamsService } from './live-streams.service';
import { SimulcastTargetsService } from './simulcast-targets.service';

@Controller()
@live.LiveStreamsServiceControllerMethods()
export class LiveStreamsGrpcController implements live.LiveStreamsServiceController {
  constructor(
    @Inject(LiveStreamsService) private readonly streams: LiveStreamsService,
    @Inject(LiveStreamPlaybackIdsService) private readonly playbackIds: LiveStreamPlaybackIdsService,
    @Inject(SimulcastTargetsService) private readonly targets: SimulcastTargetsService,
  ) {}

  createLiveStream(r: live.CreateLiveStreamRequest): Promise<live.LiveStream> {
    return this.streams.create(r);
  }

  getLiveStream(r: common.IdRequest): Promise<live.LiveStream> {
    return this.streams.get(r.id);
  }

  listLiveStreams(r: live.ListLiveStreamsRequest): Promise<live.LiveStreamList> {
    return this.streams.list(r);
  }

  updateLiveStream(r: live.UpdateLiveStreamRequest): Promise<live.LiveStream> {
    return this.streams.update(r);
  }

  deleteLiveStream(r: common.IdRequest): Promise<common.Empty> {
    return this.streams.delete(r.id).then(() => ({}));
  }

  resetStreamKey(r: common.IdRequest): Promise<live.LiveStream> {
    return this.streams.resetStreamKey(r.id);
  }

  completeLiveStream(r: common.IdRequest): Promise<common.Empty> {
    return this.streams.complete(r.id).then(() => ({}));
  }

  disableLiveStream(r: common.IdRequest): Promise<common.Empty> {
    return this.streams.disable(r.id).then(() => ({}));
  }

  enableLiveStream(r: common.IdRequest): Promise<common.Empty> {
    return this.streams.enable(r.id).then(() => ({}));
  }

  updateEmbeddedSubtitles(r: live.UpdateEmbeddedSubtitlesRequest): Promise<live.LiveStream> {
    return this.streams.updateEmbeddedSubtitles(r);
  }

  updateGeneratedSubtitles(r: live.UpdateGeneratedSubtitlesRequest): Promise<live.LiveStream> {
    return this.streams.updateGeneratedSubtitles(r);
  }

  updateNewAssetStaticRenditions(r: live.UpdateNewAssetStaticRenditionsRequest): Promise<live.LiveStream> {
    return this.streams.updateNewAssetStaticRenditions(r);
  }

  deleteNewAssetStaticRenditions(r: common.IdRequest): Promise<common.Empty> {
    return this.streams.updateNewAssetStaticRenditions({ id: r.id, static_renditions: [] }).then(() => ({}));
  }

  createPlaybackId(r: live.CreateLiveStreamPlaybackIdRequest): Promise<assets.PlaybackId> {
    return this.playbackIds.create(r);
  }

  getPlaybackId(r: live.LiveStreamPlaybackIdRequest): Promise<assets.PlaybackId> {
    return this.playbackIds.get(r);
  }

  deletePlaybackId(r: live.LiveStreamPlaybackIdRequest): Promise<common.Empty> {
    return this.playbackIds.delete(r).then(() => ({}));
  }

  lookupPlaybackId(r: common.IdRequest): Promise<assets.PlaybackIdOwner> {
    return this.playbackIds.lookup(r.id);
  }

  createSimulcastTarget(r: live.CreateSimulcastTargetRequest): Promise<live.SimulcastTarget> {
    return this.targets.create(r);
  }

  getSimulcastTarget(r: live.SimulcastTargetRequest): Promise<live.SimulcastTarget> {
    return this.targets.get(r);
  }

  deleteSimulcastTarget(r: live.SimulcastTargetRequest): Promise<common.Empty> {
    return this.targets.delete(r).then(() => ({}));
  }
}
