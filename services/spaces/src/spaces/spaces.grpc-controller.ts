import { Controller, Inject } from '@nestjs/common';
import { common, spaces } from '@platform/proto';
import { BroadcastsService } from '../broadcasts/broadcasts.service';
import { SpacesService } from './spaces.service';

@Controller()
@spaces.SpacesServiceControllerMethods()
export class SpacesGrpcController implements spaces.SpacesServiceController {
  constructor(
    @Inject(SpacesService) private readonly spaces: SpacesService,
    @Inject(BroadcastsService) private readonly broadcasts: BroadcastsService,
  ) {}

  createSpace(request: spaces.CreateSpaceRequest): Promise<spaces.Space> {
    return this.spaces.create(request);
  }

  getSpace(request: common.IdRequest): Promise<spaces.Space> {
    return this.spaces.get(request.id);
  }

  listSpaces(request: common.PageRequest): Promise<spaces.SpaceList> {
    return this.spaces.list(request);
  }

  deleteSpace(request: common.IdRequest): Promise<common.Empty> {
    return this.spaces.delete(request.id).then(() => ({}));
  }

  createBroadcast(request: spaces.CreateBroadcastRequest): Promise<spaces.Broadcast> {
    return this.broadcasts.create(request);
  }

  getBroadcast(request: spaces.BroadcastRequest): Promise<spaces.Broadcast> {
    return this.broadcasts.get(request);
  }

  deleteBroadcast(request: spaces.BroadcastRequest): Promise<common.Empty> {
    return this.broadcasts.delete(request).then(() => ({}));
  }

  startBroadcast(request: spaces.BroadcastRequest): Promise<common.Empty> {
    return this.broadcasts.start(request).then(() => ({}));
  }

  stopBroadcast(request: spaces.BroadcastRequest): Promise<common.Empty> {
    return this.broadcasts.stop(request).then(() => ({}));
  }
}
