import { Controller, Inject } from '@nestjs/common';
import { common, playbackAuth } from '@platform/proto';
import { PlaybackRestrictionsService } from './playback-restrictions.service';

@Controller()
@playbackAuth.PlaybackRestrictionsServiceControllerMethods()
export class PlaybackRestrictionsGrpcController implements playbackAuth.PlaybackRestrictionsServiceController {
  constructor(@Inject(PlaybackRestrictionsService) private readonly restrictions: PlaybackRestrictionsService) {}

  createPlaybackRestriction(request: playbackAuth.CreatePlaybackRestrictionRequest): Promise<playbackAuth.PlaybackRestriction> {
    return this.restrictions.create(request);
  }

  getPlaybackRestriction(request: common.IdRequest): Promise<playbackAuth.PlaybackRestriction> {
    return this.restrictions.get(request.id);
  }

  listPlaybackRestrictions(request: common.PageRequest): Promise<playbackAuth.PlaybackRestrictionList> {
    return this.restrictions.list(request);
  }

  deletePlaybackRestriction(request: common.IdRequest): Promise<common.Empty> {
    return this.restrictions.delete(request.id).then(() => ({}));
  }

  updateReferrer(request: playbackAuth.UpdateReferrerRequest): Promise<playbackAuth.PlaybackRestriction> {
    return this.restrictions.updateReferrer(request);
  }

  updateUserAgent(request: playbackAuth.UpdateUserAgentRequest): Promise<playbackAuth.PlaybackRestriction> {
    return this.restrictions.updateUserAgent(request);
  }
}
