import { toUpload } from '@platform/api-shapes';
import { Emit, EventTypeFor } from '@platform/events';
import { UploadEntity } from './upload.entity';
import { toUploadMessage } from './upload.mapper';

/** Every event type this service publishes (each in the registry of @platform/events). */
export const UPLOAD_EVENTS = {
  created: 'video.upload.created',
  assetCreated: 'video.upload.asset_created',
  cancelled: 'video.upload.cancelled',
  errored: 'video.upload.errored',
} as const satisfies Record<string, EventTypeFor<'upload'>>;

export type UploadEventType = (typeof UPLOAD_EVENTS)[keyof typeof UPLOAD_EVENTS];

/** The data is the upload's API body, built by the gateway's own mapper from the same message. */
export function emitUploadEvent(emit: Emit, type: UploadEventType, upload: UploadEntity, baseUrl: string): void {
  emit(type, toUpload(toUploadMessage(upload, baseUrl)));
}
