import { Inject, Injectable } from '@nestjs/common';
import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { lastValueFrom, Observable, timeout } from 'rxjs';

/** What the pipeline asks of the assets service (AssetProcessingService), as promises. */
export interface AssetProcessing {
  /** Undefined when the asset no longer exists (deleted). */
  getIngestSpec(assetId: string): Promise<assets.IngestSpec | undefined>;
  recordProbe(request: assets.RecordProbeRequest): Promise<void>;
  markReady(assetId: string): Promise<void>;
  markErrored(assetId: string, errors: assets.AssetErrors): Promise<void>;
  /** video.asset.warning (once per asset and type); the asset keeps its status. */
  reportWarning(assetId: string, warning: assets.AssetWarning): Promise<void>;
}

/** The warning of an asset that plays from its source rendition but will not get its encoded renditions. */
export function renditionsFailedWarning(reason: string): assets.AssetWarning {
  return {
    type: 'renditions_failed',
    message: `The encoded renditions could not be made, so the asset plays from its source rendition only: ${reason}`,
  };
}

export const ASSET_PROCESSING = Symbol('ASSET_PROCESSING');
/** Token of the typed gRPC client (`assets.AssetProcessingServiceClient`). */
export const ASSET_PROCESSING_CLIENT = Symbol('ASSET_PROCESSING_CLIENT');

/** No call waits longer (the job's lease would be renewed for ever while it hangs). */
export const ASSET_CALL_TIMEOUT_MS = 30_000;

const call = <T>(observable: Observable<T>): Promise<T> => lastValueFrom(observable.pipe(timeout(ASSET_CALL_TIMEOUT_MS)));

/** True for a failure to reach the assets service (not an answer from it): the attempt is not counted. */
export function isUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === GrpcStatus.UNAVAILABLE || code === GrpcStatus.DEADLINE_EXCEEDED || (err as Error | undefined)?.name === 'TimeoutError';
}

/**
 * Answers of the assets service that refuse the call for good (the asset is gone, or in a state where
 * this change cannot happen): asking again cannot change them, so the job ends instead of retrying.
 */
const REFUSALS: ReadonlySet<number> = new Set([
  GrpcStatus.NOT_FOUND,
  GrpcStatus.FAILED_PRECONDITION,
  GrpcStatus.INVALID_ARGUMENT,
  GrpcStatus.ALREADY_EXISTS,
  GrpcStatus.PERMISSION_DENIED,
  GrpcStatus.OUT_OF_RANGE,
  GrpcStatus.UNIMPLEMENTED,
]);

export function isRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && REFUSALS.has(code) && (err as Error | undefined)?.name !== 'TimeoutError';
}

/** The AssetProcessing port over the generated gRPC client. */
@Injectable()
export class GrpcAssetProcessing implements AssetProcessing {
  constructor(@Inject(ASSET_PROCESSING_CLIENT) private readonly client: assets.AssetProcessingServiceClient) {}

  async getIngestSpec(assetId: string): Promise<assets.IngestSpec | undefined> {
    try {
      return await call(this.client.getIngestSpec({ id: assetId }));
    } catch (err) {
      if ((err as { code?: number }).code === GrpcStatus.NOT_FOUND) return undefined;
      throw err;
    }
  }

  async recordProbe(request: assets.RecordProbeRequest): Promise<void> {
    await call(this.client.recordProbe(request));
  }

  async markReady(assetId: string): Promise<void> {
    await call(this.client.markReady({ asset_id: assetId }));
  }

  async markErrored(assetId: string, errors: assets.AssetErrors): Promise<void> {
    await call(this.client.markErrored({ asset_id: assetId, errors }));
  }

  async reportWarning(assetId: string, warning: assets.AssetWarning): Promise<void> {
    await call(this.client.reportWarning({ asset_id: assetId, warning }));
  }
}
