import { Inject, Injectable } from '@nestjs/common';
import { refusalFromGrpc } from '@platform/errors';
import { assets } from '@platform/proto';
import { lastValueFrom, Observable, timeout } from 'rxjs';

/** What this service asks of the assets service. */
export interface AssetsPort {
  /** Throws DomainError INVALID_PARAMETERS / NOT_IMPLEMENTED with the assets service's messages. */
  checkSettings(request: assets.CreateAssetRequest): Promise<void>;
  /** Idempotent per upload_id. Throws DomainError for a refusal, anything else for a failure to reach it. */
  createAsset(request: assets.CreateAssetRequest): Promise<assets.Asset>;
}

export const ASSETS_PORT = Symbol('ASSETS_PORT');
export const ASSETS_GRPC_CLIENT = Symbol('ASSETS_GRPC_CLIENT');

const CALL_TIMEOUT_MS = 30_000;

@Injectable()
export class GrpcAssets implements AssetsPort {
  constructor(@Inject(ASSETS_GRPC_CLIENT) private readonly client: assets.AssetsServiceClient) {}

  async checkSettings(request: assets.CreateAssetRequest): Promise<void> {
    await this.call(this.client.checkAssetSettings(request));
  }

  createAsset(request: assets.CreateAssetRequest): Promise<assets.Asset> {
    return this.call(this.client.createAsset(request));
  }

  private async call<T>(observable: Observable<T>): Promise<T> {
    try {
      return await lastValueFrom(observable.pipe(timeout(CALL_TIMEOUT_MS)));
    } catch (err) {
      throw refusalFromGrpc(err);
    }
  }
}
