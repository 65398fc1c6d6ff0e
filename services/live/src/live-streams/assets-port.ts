import { Inject, Injectable } from '@nestjs/common';
import { decodeMessages, DomainError, ErrorCode, GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { lastValueFrom, timeout } from 'rxjs';

/** What live streams ask of the assets service so far: the checks of asset creation. */
export interface AssetsPort {
  /** Throws DomainError INVALID_PARAMETERS / NOT_IMPLEMENTED with the assets service's messages. */
  checkSettings(request: assets.CreateAssetRequest): Promise<void>;
}

export const ASSETS_PORT = Symbol('ASSETS_PORT');
export const ASSETS_GRPC_CLIENT = Symbol('ASSETS_GRPC_CLIENT');

const REFUSALS: Partial<Record<number, ErrorCode>> = {
  [GrpcStatus.INVALID_ARGUMENT]: ErrorCode.INVALID_PARAMETERS,
  [GrpcStatus.UNIMPLEMENTED]: ErrorCode.NOT_IMPLEMENTED,
};

@Injectable()
export class GrpcAssets implements AssetsPort {
  constructor(@Inject(ASSETS_GRPC_CLIENT) private readonly client: assets.AssetsServiceClient) {}

  async checkSettings(request: assets.CreateAssetRequest): Promise<void> {
    try {
      await lastValueFrom(this.client.checkAssetSettings(request).pipe(timeout(30_000)));
    } catch (err) {
      const { code, details } = err as { code?: number; details?: string };
      const mapped = code === undefined ? undefined : REFUSALS[code];
      throw mapped ? new DomainError(mapped, decodeMessages(details)) : err;
    }
  }
}
