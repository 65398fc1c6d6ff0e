import { Controller, Inject } from '@nestjs/common';
import { assets, common } from '@platform/proto';
import { TrackProcessingService } from '../tracks/track-processing.service';
import { AssetProcessingService } from './asset-processing.service';

/** Internal: called by the transcoder and the live ingest. */
@Controller()
@assets.AssetProcessingServiceControllerMethods()
export class AssetProcessingGrpcController implements assets.AssetProcessingServiceController {
  constructor(
    @Inject(AssetProcessingService) private readonly processing: AssetProcessingService,
    @Inject(TrackProcessingService) private readonly tracks: TrackProcessingService,
  ) {}

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
    return this.tracks.setTrackStatus(request);
  }

  reportWarning(request: assets.ReportWarningRequest): Promise<assets.Asset> {
    return this.processing.reportWarning(request);
  }

  getTrackSpec(request: assets.TrackRequest): Promise<assets.TrackSpec> {
    return this.tracks.getTrackSpec(request);
  }
}
