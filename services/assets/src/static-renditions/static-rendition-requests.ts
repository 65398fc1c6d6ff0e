import { DomainError, ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { assetKeys } from '@platform/storage';
import { AssetEntity } from '../assets/asset.entity';
import { Decision } from './download-changes';
import { DownloadEvent, MP4_SUPPORT_EVENTS, STATIC_RENDITION_EVENTS } from './download-events';
import { newStaticRendition } from './download-state';
import { toStaticRenditionFile } from './static-rendition.mapper';
import { MP4_SUPPORT_NAMES, nameOfResolution } from './static-rendition-plans';

/** The files of mp4_support: what `none` (or another option) removes, made or being made. */
const mp4SupportKeys = (assetId: string) => MP4_SUPPORT_NAMES.map((name) => assetKeys.staticRendition(assetId, name));
const apiFiles = (a: AssetEntity) => a.staticRenditions.filter((f) => f.origin === 'api');

/** An errored asset has no media to make files of (4xx); a preparing one gets them once ingested, as Mux does. */
function refuseErrored(asset: AssetEntity, what: string): void {
  if (asset.status === 'errored') throw DomainError.precondition(`The asset is errored: it has no media to make ${what} of`);
}

/**
 * PUT mp4-support. A new option (not `none`) drops the files of the old one and makes its own:
 * `preparing` (asked again after it errored, it starts over). `none` removes the files and the
 * aggregate (`static_renditions.deleted`). The same option again changes nothing. An asset uses
 * mp4_support or the Static Renditions API, not both (as at creation).
 */
export function decideMp4Support(asset: AssetEntity, value: string, now: Date): Decision<void> {
  const current = asset.mp4Support;
  if (value === current && (value === 'none' || asset.staticRenditionsStatus !== 'errored')) return { result: undefined };
  const kept = apiFiles(asset);
  if (value === 'none') {
    return {
      changes: { mp4Support: 'none', staticRenditionsStatus: null, staticRenditions: kept, updatedAt: now },
      events: asset.staticRenditionsStatus !== null ? [{ type: MP4_SUPPORT_EVENTS.deleted }] : [],
      deleteKeys: mp4SupportKeys(asset.id),
      result: undefined,
    };
  }
  refuseErrored(asset, 'MP4 files');
  if (kept.length > 0) {
    throw DomainError.precondition(
      'mp4_support: the asset has static renditions of the Static Renditions API; delete them before using mp4_support (an asset uses one or the other)',
    );
  }
  // another option replaces the files of the old one; the same one again (after it errored) starts over
  const events: DownloadEvent[] = current !== 'none' && value !== current ? [{ type: MP4_SUPPORT_EVENTS.deleted }] : [];
  return {
    changes: { mp4Support: value, staticRenditionsStatus: 'preparing', staticRenditions: [], updatedAt: now },
    events: [...events, { type: MP4_SUPPORT_EVENTS.preparing }],
    deleteKeys: current !== 'none' ? mp4SupportKeys(asset.id) : [],
    result: undefined,
  };
}

/**
 * POST static-renditions: a new rendition, `preparing` (made once the asset is ingested), with
 * `static_rendition.created`. One rendition per file name (409 while it exists); none while the asset
 * uses mp4_support.
 */
export function decideCreate(asset: AssetEntity, request: assets.CreateStaticRenditionRequest, id: string, now: Date): Decision<assets.StaticRenditionFile> {
  refuseErrored(asset, 'static renditions');
  if (asset.mp4Support !== 'none') {
    throw DomainError.precondition(
      `static_renditions: the asset uses mp4_support "${asset.mp4Support}"; set it to "none" before using the Static Renditions API (an asset uses one or the other)`,
    );
  }
  const name = nameOfResolution(request.resolution);
  const existing = apiFiles(asset).find((f) => f.name === name);
  if (existing) throw new DomainError(ErrorCode.ALREADY_EXISTS, `resolution: the asset already has a ${request.resolution} static rendition (${existing.id})`);
  const file = newStaticRendition(id, request, now, asset.resolutionTier ?? undefined);
  return {
    changes: { staticRenditions: [...asset.staticRenditions, file], updatedAt: now },
    events: [{ type: STATIC_RENDITION_EVENTS.created, file }],
    result: toStaticRenditionFile(file),
  };
}

/** DELETE static-renditions/{id}: the rendition and its file, with `static_rendition.deleted` (the file as it was). */
export function decideDelete(asset: AssetEntity, id: string, now: Date): Decision<void> {
  const file = apiFiles(asset).find((f) => f.id === id);
  if (!file) throw DomainError.notFound('Static rendition');
  return {
    changes: { staticRenditions: asset.staticRenditions.filter((f) => f !== file), updatedAt: now },
    events: [{ type: STATIC_RENDITION_EVENTS.deleted, file }],
    deleteKeys: [assetKeys.staticRendition(asset.id, file.name)],
    result: undefined,
  };
}
