import { AssetBody } from '@platform/api-shapes';
import { EventData, EventType, newEvent, PlatformEvent, toPlatformEvent } from '@platform/events';

/** A registered event as the bus carries it, its data checked against the registry like a producer's. */
export function testEvent<T extends EventType>(type: T, data: EventData<T>, id?: string): PlatformEvent {
  const event = toPlatformEvent(newEvent(type, data));
  return id === undefined ? event : { ...event, id };
}

/** A valid asset body (the data of `video.asset.*`), `preparing` from a URL unless told otherwise. */
export function assetBody(id: string, fields: Partial<AssetBody> = {}): AssetBody {
  return {
    id,
    created_at: '1700000000',
    status: 'preparing',
    progress: { state: 'ingesting', progress: 0 },
    max_resolution_tier: '1080p',
    encoding_tier: 'smart',
    video_quality: 'plus',
    master_access: 'none',
    mp4_support: 'none',
    ingest_type: 'on_demand_url',
    ...fields,
  };
}
