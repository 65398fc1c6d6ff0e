import { Inject, Injectable } from '@nestjs/common';
import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { lastValueFrom, Observable, timeout } from 'rxjs';
import { ASSET_CALL_TIMEOUT_MS, ASSET_PROCESSING_CLIENT } from '../pipeline/asset-processing';

/** What track tasks ask of the assets service (AssetProcessingService), as promises. */
export interface TrackProcessing {
  /** Undefined when the track or its asset is gone (deleted). */
  getTrackSpec(assetId: string, trackId: string): Promise<assets.TrackSpec | undefined>;
  /** `gone` when the track or its asset was deleted meanwhile. */
  setTrackStatus(request: assets.SetTrackStatusRequest): Promise<'done' | 'gone'>;
}

export const TRACK_PROCESSING = Symbol('TRACK_PROCESSING');

const call = <T>(observable: Observable<T>): Promise<T> => lastValueFrom(observable.pipe(timeout(ASSET_CALL_TIMEOUT_MS)));
const isNotFound = (err: unknown) => (err as { code?: number } | undefined)?.code === GrpcStatus.NOT_FOUND;

/** The TrackProcessing port over the generated gRPC client. */
@Injectable()
export class GrpcTrackProcessing implements TrackProcessing {
  constructor(@Inject(ASSET_PROCESSING_CLIENT) private readonly client: assets.AssetProcessingServiceClient) {}

  async getTrackSpec(assetId: string, trackId: string): Promise<assets.TrackSpec | undefined> {
    try {
      return await call(this.client.getTrackSpec({ asset_id: assetId, track_id: trackId }));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async setTrackStatus(request: assets.SetTrackStatusRequest): Promise<'done' | 'gone'> {
    try {
      await call(this.client.setTrackStatus(request));
      return 'done';
    } catch (err) {
      if (isNotFound(err)) return 'gone';
      throw err;
    }
  }
}
