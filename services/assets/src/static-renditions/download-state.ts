import { assets } from '@platform/proto';
import { AssetChanges } from '../assets/asset.repository';
import { AssetEntity } from '../assets/asset.entity';
import { DownloadEvent, MASTER_EVENTS, MP4_SUPPORT_EVENTS, STATIC_RENDITION_EVENTS } from './download-events';
import { nameOfResolution, tierOfResolution, typeOfResolution } from './static-rendition-plans';
import { StoredStaticRendition } from './stored-static-rendition';

/** The download fields of an asset that asks for nothing. */
export const NO_DOWNLOADS = {
  staticRenditions: [] as StoredStaticRendition[],
  staticRenditionsStatus: null,
  masterStatus: null,
  masterToken: null,
  masterUrl: null,
  masterExpiresAt: null,
} satisfies Partial<AssetEntity>;

/** A new rendition of the Static Renditions API, `preparing` until the asset is ingested and it is made. */
export function newStaticRendition(id: string, request: assets.StaticRenditionRequest, now: Date, assetTier?: string): StoredStaticRendition {
  const tier = tierOfResolution(request.resolution, assetTier);
  return {
    origin: 'api',
    id,
    name: nameOfResolution(request.resolution),
    ext: request.resolution === 'audio-only' ? 'm4a' : 'mp4',
    status: 'preparing',
    resolution: request.resolution,
    type: typeOfResolution(request.resolution),
    ...(tier ? { resolution_tier: tier } : {}),
    ...(request.passthrough !== undefined ? { passthrough: request.passthrough } : {}),
    created_at: now.toISOString(),
  };
}

/**
 * What a new asset asks for (spec 2.2 `mp4_support`, `master_access`, Mux's `static_renditions`):
 * everything `preparing`, made once the asset is ingested; and the events that say so, after
 * `video.asset.created` in the same transaction.
 */
export function initialDownloads(
  settings: { mp4Support: string; masterAccess: string; staticRenditions: assets.StaticRenditionRequest[] },
  now: Date,
  newId: () => string,
): { fields: typeof NO_DOWNLOADS | Pick<AssetEntity, keyof typeof NO_DOWNLOADS>; events: DownloadEvent[] } {
  const files = settings.staticRenditions.map((r) => newStaticRendition(newId(), r, now));
  const legacy = settings.mp4Support !== 'none';
  const master = settings.masterAccess === 'temporary';
  const events: DownloadEvent[] = [
    ...(legacy ? [{ type: MP4_SUPPORT_EVENTS.preparing }] : []),
    ...files.map((file) => ({ type: STATIC_RENDITION_EVENTS.created, file })),
    ...(master ? [{ type: MASTER_EVENTS.preparing }] : []),
  ];
  return {
    fields: { ...NO_DOWNLOADS, staticRenditions: files, staticRenditionsStatus: legacy ? 'preparing' : null, masterStatus: master ? 'preparing' : null },
    events,
  };
}

/**
 * An asset that could not be ingested can have no downloads (Mux: a static rendition is `errored` when
 * "an asset could not be ingested"): whatever is still `preparing` becomes `errored`, each with its event.
 */
export function downloadsOnError(asset: AssetEntity): { changes: AssetChanges; events: DownloadEvent[] } {
  const changes: AssetChanges = {};
  const events: DownloadEvent[] = [];
  if (asset.staticRenditionsStatus === 'preparing') {
    changes.staticRenditionsStatus = 'errored';
    events.push({ type: MP4_SUPPORT_EVENTS.errored });
  }
  const failed = asset.staticRenditions.map((f) => (f.origin === 'api' && f.status === 'preparing' ? { ...f, status: 'errored' as const } : f));
  failed.forEach((f, i) => {
    if (f !== asset.staticRenditions[i]) events.push({ type: STATIC_RENDITION_EVENTS.errored, file: f });
  });
  if (failed.some((f, i) => f !== asset.staticRenditions[i])) changes.staticRenditions = failed;
  if (asset.masterStatus === 'preparing') {
    changes.masterStatus = 'errored';
    events.push({ type: MASTER_EVENTS.errored });
  }
  return { changes, events };
}
