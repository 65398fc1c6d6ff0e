import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, PlatformEvent, topicOf } from '@platform/events';
import { UploadCompletion } from './upload-completion.service';

export const CONSUMER_GROUP = 'uploads';
export const ASSET_ERRORED = 'video.asset.errored';

/**
 * Consumer group `uploads`: when the asset of an upload errors (most often: the file is not
 * media), the upload becomes `errored` with the asset's error, and video.upload.errored goes out,
 * as Mux does. Idempotent: only an `asset_created` upload of that very asset changes.
 */
@Injectable()
export class AssetEventsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(UploadCompletion) private readonly completion: UploadCompletion,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe({ group: CONSUMER_GROUP, topics: [topicOf(ASSET_ERRORED)], handle: (event) => this.handle(event) });
  }

  async handle(event: PlatformEvent): Promise<void> {
    if (event.type !== ASSET_ERRORED || event.object.type !== 'asset') return;
    const data = event.data as { upload_id?: string; errors?: { type?: string; messages?: string[] } };
    if (!data.upload_id) return;
    const type = data.errors?.type ?? 'invalid_input';
    const message = (data.errors?.messages ?? []).join(' ') || 'The asset could not be made from the uploaded file';
    await this.completion.assetErrored(data.upload_id, event.object.id, { type, message });
  }
}
