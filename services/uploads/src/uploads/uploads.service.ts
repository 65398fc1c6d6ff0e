import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { assets, uploads } from '@platform/proto';
import { RESUMABLE_WRITER, ResumableWriter } from '@platform/storage';
import { CLOCK, Clock } from '../clock';
import { ASSETS_PORT, AssetsPort } from './assets-port';
import { UploadEntity } from './upload.entity';
import { emitUploadEvent, UPLOAD_EVENTS } from './upload-events';
import { toUploadMessage } from './upload.mapper';
import { UploadRepository } from './upload.repository';
import { validCorsOrigin, validTimeout } from './upload-settings';
import { newSignature } from './upload-url';

export const DEFAULT_LIMIT = 25;

/** Direct uploads as the gateway sees them (spec 2.6, 4.5); the bytes go to the upload host. */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger('UploadsService');

  constructor(
    @Inject(UploadRepository) private readonly uploads: UploadRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(ASSETS_PORT) private readonly assets: AssetsPort,
    @Inject(RESUMABLE_WRITER) private readonly writer: ResumableWriter,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * A `waiting` upload with its URL. new_asset_settings are checked by the assets service's own
   * rules (so they are exactly those of asset creation) before anything is stored.
   */
  async create(request: uploads.CreateUploadRequest): Promise<uploads.Upload> {
    const timeout = validTimeout(request.timeout);
    const corsOrigin = validCorsOrigin(request.cors_origin);
    const id = newId();
    const settings = request.new_asset_settings ? plainSettings(request.new_asset_settings) : null;
    if (settings) await this.checkSettings(id, settings, request.test === true);
    const now = this.clock.now();
    const upload: UploadEntity = {
      id,
      status: 'waiting',
      timeout,
      corsOrigin,
      newAssetSettings: settings,
      test: request.test === true,
      assetId: null,
      error: null,
      signature: newSignature(),
      expiresAt: new Date(now.getTime() + timeout * 1000),
      write: null,
      totalBytes: null,
      claimToken: null,
      claimUntil: null,
      completedAt: null,
      createdAt: now,
      updatedAt: null,
    };
    await this.unitOfWork.run(async (manager, emit) => {
      await this.uploads.insert(manager, upload);
      emitUploadEvent(emit, UPLOAD_EVENTS.created, upload, this.config.uploads.baseUrl);
    });
    return toUploadMessage(upload, this.config.uploads.baseUrl);
  }

  async get(id: string): Promise<uploads.Upload> {
    const upload = await this.uploads.findById(id);
    if (!upload) throw notFound();
    return toUploadMessage(upload, this.config.uploads.baseUrl);
  }

  async list(request: { limit: number; page: number }): Promise<uploads.UploadList> {
    const limit = request.limit > 0 ? request.limit : DEFAULT_LIMIT;
    const page = request.page > 0 ? request.page : 1;
    const items = await this.uploads.list(limit, (page - 1) * limit);
    return { items: items.map((u) => toUploadMessage(u, this.config.uploads.baseUrl)) };
  }

  /**
   * `waiting` → `cancelled` (spec 3), only while waiting and before the last byte is in; the bytes
   * received so far are dropped, and a request still writing finds the upload cancelled.
   */
  async cancel(id: string): Promise<uploads.Upload> {
    const cancelled = await this.unitOfWork.run(async (manager, emit) => {
      const upload = await this.uploads.lockById(manager, id);
      if (!upload) throw notFound();
      if (upload.status !== 'waiting') throw DomainError.precondition(`Only a waiting upload can be cancelled; this one is ${upload.status}`);
      if (upload.completedAt) throw DomainError.precondition('The upload is complete and its asset is being created; it can no longer be cancelled');
      const updated = await this.uploads.update(manager, id, { status: 'cancelled', updatedAt: this.clock.now() });
      emitUploadEvent(emit, UPLOAD_EVENTS.cancelled, updated!, this.config.uploads.baseUrl);
      return updated!;
    });
    await this.dropBytes(cancelled);
    return toUploadMessage(cancelled, this.config.uploads.baseUrl);
  }

  /** Best effort: bytes of an upload that will make no asset (a later sweep has nothing to retry). */
  async dropBytes(upload: UploadEntity): Promise<void> {
    if (!upload.write) return;
    await this.writer.discard(upload.write).catch((err: unknown) => {
      this.logger.warn(`upload ${upload.id}: dropping its bytes failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private async checkSettings(id: string, settings: assets.CreateAssetRequest, test: boolean): Promise<void> {
    try {
      await this.assets.checkSettings(assetRequest(id, settings, test));
    } catch (err) {
      if (err instanceof DomainError)
        throw new DomainError(
          err.code,
          err.messages.map((m) => `new_asset_settings.${m}`),
        );
      throw err;
    }
  }
}

/** The settings as given, without absent fields (they are stored as JSON). */
function plainSettings(s: assets.CreateAssetRequest): assets.CreateAssetRequest {
  return JSON.parse(JSON.stringify(s)) as assets.CreateAssetRequest;
}

/** The CreateAsset request of an upload's asset: its settings, its stored file, its ingest type. */
export function assetRequest(uploadId: string, settings: assets.CreateAssetRequest | null, test: boolean, objectKey?: string): assets.CreateAssetRequest {
  const s = settings ?? { input: [], playback_policy: [], static_renditions: [] };
  const [first, ...rest] = s.input ?? [];
  const input = objectKey ? [{ ...(first ?? { generated_subtitles: [] }), object_key: objectKey }, ...rest] : [...(s.input ?? [])];
  return {
    ...s,
    input,
    playback_policy: [...(s.playback_policy ?? [])],
    static_renditions: [...(s.static_renditions ?? [])],
    test: test || s.test === true,
    upload_id: uploadId,
    ingest_type: 'on_demand_direct_upload',
  };
}

export function notFound(): DomainError {
  return DomainError.notFound('Upload');
}
