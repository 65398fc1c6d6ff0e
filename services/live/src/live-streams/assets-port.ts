import { Inject, Injectable } from '@nestjs/common';
import { refusalFromGrpc } from '@platform/errors';
import { assets } from '@platform/proto';
import { lastValueFrom, Observable, timeout } from 'rxjs';

/** What live streams ask of the assets service: the checks of asset creation, and the recorded assets. */
export interface AssetsPort {
  /** Throws DomainError INVALID_PARAMETERS / NOT_IMPLEMENTED with the assets service's messages. */
  checkSettings(request: assets.CreateAssetRequest): Promise<void>;
  createAsset(request: assets.CreateAssetRequest): Promise<assets.Asset>;
  /** Returns the tracks as stored (with the ids the assets service gave them). */
  recordProbe(request: assets.RecordProbeRequest): Promise<assets.Track[]>;
  markReady(assetId: string): Promise<void>;
  markErrored(assetId: string, errors: assets.AssetErrors): Promise<void>;
  setTrackStatus(assetId: string, trackId: string, status: 'ready' | 'errored'): Promise<void>;
}

export const ASSETS_PORT = Symbol('ASSETS_PORT');
export const ASSETS_GRPC_CLIENT = Symbol('ASSETS_GRPC_CLIENT');
export const ASSET_PROCESSING_GRPC_CLIENT = Symbol('ASSET_PROCESSING_GRPC_CLIENT');

async function call<T>(observable: Observable<T>): Promise<T> {
  try {
    return await lastValueFrom(observable.pipe(timeout(30_000)));
  } catch (err) {
    throw refusalFromGrpc(err);
  }
}

@Injectable()
export class GrpcAssets implements AssetsPort {
  constructor(
    @Inject(ASSETS_GRPC_CLIENT) private readonly client: assets.AssetsServiceClient,
    @Inject(ASSET_PROCESSING_GRPC_CLIENT) private readonly processing: assets.AssetProcessingServiceClient,
  ) {}

  async checkSettings(request: assets.CreateAssetRequest): Promise<void> {
    await call(this.client.checkAssetSettings(request));
  }

  createAsset(request: assets.CreateAssetRequest): Promise<assets.Asset> {
    return call(this.client.createAsset(request));
  }

  async recordProbe(request: assets.RecordProbeRequest): Promise<assets.Track[]> {
    return (await call(this.processing.recordProbe(request))).tracks ?? [];
  }

  async markReady(assetId: string): Promise<void> {
    await call(this.processing.markReady({ asset_id: assetId }));
  }

  async markErrored(assetId: string, errors: assets.AssetErrors): Promise<void> {
    await call(this.processing.markErrored({ asset_id: assetId, errors }));
  }

  async setTrackStatus(assetId: string, trackId: string, status: 'ready' | 'errored'): Promise<void> {
    await call(this.processing.setTrackStatus({ asset_id: assetId, track_id: trackId, status }));
  }
}
