import { Controller, Inject } from '@nestjs/common';
import { assets, common } from '@platform/proto';
import { MasterAccessService } from '../masters/master-access.service';
import { StaticRenditionsService } from './static-renditions.service';

/** StaticRenditionsService of the proto: the gateway's mp4-support, master-access and static-renditions routes; the playback host's lookups. */
@Controller()
@assets.StaticRenditionsServiceControllerMethods()
export class StaticRenditionsGrpcController implements assets.StaticRenditionsServiceController {
  constructor(
    @Inject(StaticRenditionsService) private readonly renditions: StaticRenditionsService,
    @Inject(MasterAccessService) private readonly masters: MasterAccessService,
  ) {}

  updateMp4Support(request: assets.UpdateMp4SupportRequest): Promise<assets.Asset> {
    return this.renditions.updateMp4Support(request);
  }

  updateMasterAccess(request: assets.UpdateMasterAccessRequest): Promise<assets.Asset> {
    return this.masters.update(request);
  }

  createStaticRendition(request: assets.CreateStaticRenditionRequest): Promise<assets.StaticRenditionFile> {
    return this.renditions.create(request);
  }

  deleteStaticRendition(request: assets.DeleteStaticRenditionRequest): Promise<common.Empty> {
    return this.renditions.delete(request).then(() => ({}));
  }

  lookupStaticRendition(request: assets.LookupStaticRenditionRequest): Promise<assets.StaticRenditionFile> {
    return this.renditions.lookup(request);
  }

  lookupMasterAccess(request: assets.LookupMasterAccessRequest): Promise<assets.MasterAccessGrant> {
    return this.masters.lookup(request.token);
  }
}

/** Internal: the transcoder's plans and reports of static renditions and masters. */
@Controller()
@assets.StaticRenditionProcessingServiceControllerMethods()
export class StaticRenditionProcessingGrpcController implements assets.StaticRenditionProcessingServiceController {
  constructor(
    @Inject(StaticRenditionsService) private readonly renditions: StaticRenditionsService,
    @Inject(MasterAccessService) private readonly masters: MasterAccessService,
  ) {}

  planStaticRenditionWork(request: assets.StaticRenditionWorkRequest): Promise<assets.StaticRenditionWork> {
    return this.renditions.plan(request);
  }

  recordStaticRendition(request: assets.RecordStaticRenditionRequest): Promise<assets.Asset> {
    return this.renditions.record(request);
  }

  planMasterWork(request: common.IdRequest): Promise<assets.MasterWork> {
    return this.masters.plan(request.id);
  }

  recordMaster(request: assets.RecordMasterRequest): Promise<assets.Asset> {
    return this.masters.record(request);
  }
}
