import { Inject, Injectable } from '@nestjs/common';
import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { lastValueFrom, Observable, timeout } from 'rxjs';
import { ASSET_CALL_TIMEOUT_MS } from '../pipeline/asset-processing';

/** What the static-rendition and master tasks ask of the assets service (StaticRenditionProcessingService). */
export interface StaticRenditionWorkPort {
  /** Undefined when the asset no longer exists. */
  plan(assetId: string, target: string): Promise<assets.StaticRenditionWork | undefined>;
  record(request: assets.RecordStaticRenditionRequest): Promise<void>;
  /** Undefined when the asset no longer exists. */
  planMaster(assetId: string): Promise<assets.MasterWork | undefined>;
  recordMaster(request: assets.RecordMasterRequest): Promise<void>;
}

export const STATIC_RENDITION_WORK = Symbol('STATIC_RENDITION_WORK');
export const STATIC_RENDITION_PROCESSING_CLIENT = Symbol('STATIC_RENDITION_PROCESSING_CLIENT');

const call = <T>(observable: Observable<T>): Promise<T> => lastValueFrom(observable.pipe(timeout(ASSET_CALL_TIMEOUT_MS)));

async function unlessGone<T>(observable: Observable<T>): Promise<T | undefined> {
  try {
    return await call(observable);
  } catch (err) {
    if ((err as { code?: number }).code === GrpcStatus.NOT_FOUND) return undefined;
    throw err;
  }
}

/** The port over the generated gRPC client. */
@Injectable()
export class GrpcStaticRenditionWork implements StaticRenditionWorkPort {
  constructor(@Inject(STATIC_RENDITION_PROCESSING_CLIENT) private readonly client: assets.StaticRenditionProcessingServiceClient) {}

  plan(assetId: string, target: string): Promise<assets.StaticRenditionWork | undefined> {
    return unlessGone(this.client.planStaticRenditionWork({ asset_id: assetId, target }));
  }

  async record(request: assets.RecordStaticRenditionRequest): Promise<void> {
    await call(this.client.recordStaticRendition(request));
  }

  planMaster(assetId: string): Promise<assets.MasterWork | undefined> {
    return unlessGone(this.client.planMasterWork({ id: assetId }));
  }

  async recordMaster(request: assets.RecordMasterRequest): Promise<void> {
    await call(this.client.recordMaster(request));
  }
}
