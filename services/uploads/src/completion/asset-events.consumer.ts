import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, RegisteredEvent, subscribeEvents } from '@platform/events';
import { UploadCompletion } from './upload-completion.service';

export const CONSUMER_GROUP = 'uploads';
export const ASSET_ERRORED = 'video.asset.errored';

/**
 * Consumer group `uploads`: when the asset of an upload errors (most often: the file is not
 * media), the upload becomes `errored` with the asset's error, and video.upload.errored goes out,
 * as Mux does. Each event is validated against the registry first (an invalid one is a dead
 * letter) and handled once: the upload's change, its event and the event id in
 * `uploads.processed_events` commit together.
 */
@Injectable()
export class AssetEventsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(UploadCompletion) private readonly completion: UploadCompletion,
  ) {}

  async onModuleInit(): Promise<void> {
    await subscribeEvents(this.bus, { group: CONSUMER_GROUP, types: [ASSET_ERRORED], handle: (event) => this.handle(event) });
  }

  async handle(event: RegisteredEvent<typeof ASSET_ERRORED>): Promise<void> {
    const { upload_id: uploadId, errors } = event.data;
    const type = errors?.type ?? 'invalid_input';
    const message = (errors?.messages ?? []).join(' ') || 'The asset could not be made from the uploaded file';
    await this.completion.assetErrored({ consumer: CONSUMER_GROUP, eventId: event.id }, uploadId, event.object.id, { type, message });
  }
}
