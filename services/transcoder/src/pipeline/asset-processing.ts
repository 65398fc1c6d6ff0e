import { Inject, Injectable } from '@nestjs/common';
import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { lastValueFrom } from 'rxjs';

/** What the pipeline asks of the assets service (AssetProcessingService), as promises. */
export interface AssetProcessing {
  /** Undefined when the asset no longer exists (deleted). */
  getIngestSpec(assetId: string): Promise<assets.IngestSpec | undefined>;
  recordProbe(request: assets.RecordProbeRequest): Promise<void>;
  markReady(assetId: string): Promise<void>;
  markErrored(assetId: string, errors: assets.AssetErrors): Promise<void>;
}

export const ASSET_PROCESSING = Symbol('ASSET_PROCESSING');
/** Token of the typed gRPC client (`assets.AssetProcessingServiceClient`). */
export const ASSET_PROCESSING_CLIENT = Symbol('ASSET_PROCESSING_CLIENT');

/** The AssetProcessing port over the generated gRPC client. */
@Injectable()
export class GrpcAssetProcessing implements AssetProcessing {
  constructor(@Inject(ASSET_PROCESSING_CLIENT) private readonly client: assets.AssetProcessingServiceClient) {}

  async getIngestSpec(assetId: string): Promise<assets.IngestSpec | undefined> {
    try {
      return await lastValueFrom(this.client.getIngestSpec({ id: assetId }));
    } catch (err) {
      if ((err as { code?: number }).code === GrpcStatus.NOT_FOUND) return undefined;
      throw err;
    }
  }

  async recordProbe(request: assets.RecordProbeRequest): Promise<void> {
    await lastValueFrom(this.client.recordProbe(request));
  }

  async markReady(assetId: string): Promise<void> {
    await lastValueFrom(this.client.markReady({ asset_id: assetId }));
  }

  async markErrored(assetId: string, errors: assets.AssetErrors): Promise<void> {
    await lastValueFrom(this.client.markErrored({ asset_id: assetId, errors }));
  }
}
