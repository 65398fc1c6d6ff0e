import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/errors';
import { Emit, UnitOfWork } from '@platform/events';
import { RESUMABLE_WRITER, ResumableWriter, uploadKeys } from '@platform/storage';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../clock';
import { ASSETS_PORT, AssetsPort } from '../uploads/assets-port';
import { UploadEntity, UploadError } from '../uploads/upload.entity';
import { emitUploadEvent, UPLOAD_EVENTS, UploadEventType } from '../uploads/upload-events';
import { UploadRepository } from '../uploads/upload.repository';
import { assetRequest } from '../uploads/uploads.service';

/** The error type of an upload whose asset the assets service refused to create. */
export const ASSET_CREATION_FAILED = 'asset_creation_failed';

/**
 * The file is in: seal it in the store, create the asset (idempotent per upload), and record
 * `asset_created`. Each step may run again: after a crash, or when the assets service was down,
 * the sweeper calls `completeById` for uploads left complete but still `waiting`.
 */
@Injectable()
export class UploadCompletion {
  private readonly logger = new Logger('UploadCompletion');

  constructor(
    @Inject(UploadRepository) private readonly uploads: UploadRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(RESUMABLE_WRITER) private readonly writer: ResumableWriter,
    @Inject(ASSETS_PORT) private readonly assets: AssetsPort,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The upload as it ends up; a failure to reach the store or the assets service is logged, for the sweeper. */
  async complete(upload: UploadEntity): Promise<UploadEntity> {
    if (upload.status !== 'waiting' || !upload.completedAt || !upload.write) return upload;
    try {
      await this.writer.seal(upload.write);
      const asset = await this.assets.createAsset(assetRequest(upload.id, upload.newAssetSettings, upload.test, uploadKeys.source(upload.id)));
      return await this.transition(upload.id, 'waiting', { status: 'asset_created', assetId: asset.id }, UPLOAD_EVENTS.assetCreated);
    } catch (err) {
      if (err instanceof DomainError) {
        return this.transition(
          upload.id,
          'waiting',
          { status: 'errored', error: { type: ASSET_CREATION_FAILED, message: err.messages.join('; ') } },
          UPLOAD_EVENTS.errored,
        );
      }
      this.logger.warn(
        `upload ${upload.id}: the file is in, creating its asset failed (retried by the sweeper): ${err instanceof Error ? err.message : String(err)}`,
      );
      return upload;
    }
  }

  async completeById(id: string): Promise<void> {
    const upload = await this.uploads.findById(id);
    if (upload) await this.complete(upload);
  }

  /**
   * `asset_created` → `errored` when the upload's asset errored (video.asset.errored): handled once
   * per event (the change, its event and the record of `handled` in one transaction); an asset of
   * no upload, or an upload no longer `asset_created`, changes nothing.
   */
  async assetErrored(handled: { consumer: string; eventId: string }, uploadId: string | undefined, assetId: string, error: UploadError): Promise<void> {
    await this.unitOfWork.runOnce(handled.consumer, handled.eventId, async (manager, emit) => {
      if (uploadId !== undefined) await this.change(manager, emit, uploadId, 'asset_created', { status: 'errored', error }, UPLOAD_EVENTS.errored, assetId);
    });
  }

  /** Changes the upload under its lock only if it is still `from` (and of that asset); otherwise leaves it. */
  private async transition(
    id: string,
    from: UploadEntity['status'],
    changes: Partial<UploadEntity>,
    event: UploadEventType,
    assetId?: string,
  ): Promise<UploadEntity> {
    return this.unitOfWork.run((manager, emit) => this.change(manager, emit, id, from, changes, event, assetId));
  }

  private async change(
    manager: EntityManager,
    emit: Emit,
    id: string,
    from: UploadEntity['status'],
    changes: Partial<UploadEntity>,
    event: UploadEventType,
    assetId?: string,
  ): Promise<UploadEntity> {
    const upload = await this.uploads.lockById(manager, id);
    if (!upload) throw DomainError.notFound('Upload');
    if (upload.status !== from || (assetId !== undefined && upload.assetId !== assetId)) return upload;
    const updated = (await this.uploads.update(manager, id, { ...changes, updatedAt: this.clock.now() }))!;
    emitUploadEvent(emit, event, updated, this.config.uploads.baseUrl);
    return updated;
  }
}
