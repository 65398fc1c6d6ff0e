import { Controller, Inject } from '@nestjs/common';
import { assets, common } from '@platform/proto';
import { AssetProcessingService } from './asset-processing.service';

/** Internal: called by the transcoder and the live ingest. */
@Controller()
@assets.AssetProcessingServiceControllerMethods()
export class AssetProcessingGrpcController implements assets.AssetProcessingServiceController {
  constructor(@Inject(AssetProcessingService) private readonly processing: AssetProcessingService) {}

  getIngestSpec(request: common.IdRequest): Promise<assets.IngestSpec> {
    return this.processing.getIngestSpec(request.id);
  }

  recordProbe(request: assets.RecordProbeRequest): Promise<assets.Asset> {
    return this.processing.recordProbe(request);
  }

  markReady(request: assets.MarkReadyRequest): Promise<assets.Asset> {
    return this.processing.markReady(request);
  }

  markErrored(request: assets.MarkErroredRequest): Promise<assets.Asset> {
    return this.processing.markErrored(request);
  }

  setTrackStatus(request: assets.SetTrackStatusRequest): Promise<assets.Asset> {
    return this.processing.setTrackStatus(request);
  }

  reportWarning(request: assets.ReportWarningRequest): Promise<assets.Asset> {
    return this.processing.reportWarning(request);
  }
}
