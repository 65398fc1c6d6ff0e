import { DomainError } from '@platform/errors';
import { assets } from '@platform/proto';
import { AssetEntity } from '../assets/asset.entity';
import { Decision } from './download-changes';
import { MP4_SUPPORT_EVENTS, STATIC_RENDITION_EVENTS } from './download-events';
import { mp4SupportFiles, PlannedFile, staticRenditionFile, storedMediaOf } from './static-rendition-plans';
import { StoredStaticRendition } from './stored-static-rendition';

/** The task target of mp4_support's files; any other target is the id of a Static Renditions API rendition. */
export const MP4_SUPPORT_TARGET = 'mp4_support';

type Work = assets.StaticRenditionWork;
const none = (reason: string): Work => ({ action: 'none', files: [], reason });
const toPlanned = (f: PlannedFile): assets.PlannedStaticRendition => ({ name: f.name, video: f.video, audio: f.audio, short_side: f.shortSide });

/**
 * What a static-rendition task is to make now. The asset must be ingested (`ready`; until then the
 * task waits, a live recording until it ends); then the files follow from what it stores: mp4_support's
 * set (an option the asset cannot have is `errored` here), or one API rendition (`skipped` when the
 * asset cannot have it). Files already made are not made again.
 */
export function decidePlan(asset: AssetEntity, target: string): Decision<Work> {
  if (asset.status === 'errored') return { result: none('the asset is errored') };
  if (asset.status === 'preparing') return { result: { action: 'wait', files: [], reason: 'the asset is not ingested yet' } };
  const media = storedMediaOf(asset.tracks);
  if (target === MP4_SUPPORT_TARGET) {
    if (asset.staticRenditionsStatus !== 'preparing') return { result: none(`mp4_support files are ${asset.staticRenditionsStatus ?? 'not asked for'}`) };
    const plan = mp4SupportFiles(asset.mp4Support, media);
    if ('error' in plan) return { changes: { staticRenditionsStatus: 'errored' }, events: [{ type: MP4_SUPPORT_EVENTS.errored }], result: none(plan.error) };
    const missing = plan.files.filter((f) => !asset.staticRenditions.some((s) => s.origin === 'mp4_support' && s.name === f.name));
    if (missing.length === 0)
      return { changes: { staticRenditionsStatus: 'ready' }, events: [{ type: MP4_SUPPORT_EVENTS.ready }], result: none('every file is made') };
    return { result: { action: 'make', files: missing.map(toPlanned), reason: '' } };
  }
  const file = asset.staticRenditions.find((f) => f.origin === 'api' && f.id === target);
  if (!file || file.status !== 'preparing') return { result: none(file ? `the rendition is ${file.status}` : 'the rendition was deleted') };
  const planned = staticRenditionFile(file.resolution!, media);
  if (!planned) {
    const skipped = { ...file, status: 'skipped' as const };
    return {
      changes: { staticRenditions: replace(asset, file, skipped) },
      events: [{ type: STATIC_RENDITION_EVENTS.skipped, file: skipped }],
      result: none(`${file.resolution} does not fit what the asset stores`),
    };
  }
  return { result: { action: 'make', files: [toPlanned(planned)], reason: '' } };
}

/** What was read from the stored file (`filesize` from the store; undefined when the file is not there). */
export interface MadeFile {
  width: number;
  height: number;
  bitrate: number;
  filesize: number | undefined;
}

/**
 * A file the transcoder made (`ready`: it is stored) or gave up (`errored`). mp4_support's set is
 * `ready` with its last file, `errored` with its first failure; an API rendition on its own. A report
 * the asset no longer asks for is refused (FAILED_PRECONDITION: the transcoder removes what it
 * stored); a repeat of one already recorded changes nothing.
 */
export function decideRecord(asset: AssetEntity, request: assets.RecordStaticRenditionRequest, made: MadeFile, now: Date): Decision<void> {
  if (request.status !== 'ready' && request.status !== 'errored') throw DomainError.invalid('status: must be ready or errored');
  return request.target === MP4_SUPPORT_TARGET ? recordMp4Support(asset, request, made, now) : recordRendition(asset, request, made);
}

function recordMp4Support(asset: AssetEntity, request: assets.RecordStaticRenditionRequest, made: MadeFile, now: Date): Decision<void> {
  const stored = asset.staticRenditions.find((f) => f.origin === 'mp4_support' && f.name === request.name);
  if (stored && request.status === 'ready') return { result: undefined };
  const plan = asset.staticRenditionsStatus === 'preparing' ? mp4SupportFiles(asset.mp4Support, storedMediaOf(asset.tracks)) : undefined;
  const planned = plan && 'files' in plan ? plan.files : [];
  const wanted = planned.find((f) => f.name === request.name);
  if (!wanted) throw DomainError.precondition(`mp4_support no longer asks for ${request.name}`);
  if (request.status === 'errored')
    return { changes: { staticRenditionsStatus: 'errored' }, events: [{ type: MP4_SUPPORT_EVENTS.errored }], result: undefined };
  requireStored(request, made);
  const file: StoredStaticRendition = {
    origin: 'mp4_support',
    name: wanted.name,
    ext: wanted.ext,
    status: 'ready',
    ...measured(made),
    created_at: now.toISOString(),
  };
  const order = (f: StoredStaticRendition) => planned.findIndex((p) => p.name === f.name);
  const files = [...asset.staticRenditions, file].sort((a, b) => order(a) - order(b));
  const done = planned.every((p) => files.some((f) => f.origin === 'mp4_support' && f.name === p.name));
  if (!done) return { changes: { staticRenditions: files }, result: undefined };
  return { changes: { staticRenditions: files, staticRenditionsStatus: 'ready' }, events: [{ type: MP4_SUPPORT_EVENTS.ready }], result: undefined };
}

function recordRendition(asset: AssetEntity, request: assets.RecordStaticRenditionRequest, made: MadeFile): Decision<void> {
  const file = asset.staticRenditions.find((f) => f.origin === 'api' && f.id === request.target);
  if (!file) throw DomainError.notFound('Static rendition');
  if (file.status === request.status) return { result: undefined };
  if (file.status !== 'preparing') throw DomainError.precondition(`the rendition is ${file.status}`);
  if (request.status === 'errored') {
    const errored = { ...file, status: 'errored' as const };
    return {
      changes: { staticRenditions: replace(asset, file, errored) },
      events: [{ type: STATIC_RENDITION_EVENTS.errored, file: errored }],
      result: undefined,
    };
  }
  requireStored(request, made);
  const ready: StoredStaticRendition = { ...file, status: 'ready', ...measured(made), ...(file.resolution_tier ? {} : tierOf(asset)) };
  return { changes: { staticRenditions: replace(asset, file, ready) }, events: [{ type: STATIC_RENDITION_EVENTS.ready, file: ready }], result: undefined };
}

function requireStored(request: assets.RecordStaticRenditionRequest, made: MadeFile): void {
  if (made.filesize === undefined) throw DomainError.precondition(`${request.name} is not stored`);
}

/** An audio file has no frame size: 0 from the transcoder is left out. */
function measured(made: MadeFile): Pick<StoredStaticRendition, 'width' | 'height' | 'bitrate' | 'filesize'> {
  return {
    ...(made.width > 0 && made.height > 0 ? { width: made.width, height: made.height } : {}),
    bitrate: made.bitrate,
    filesize: made.filesize,
  };
}

/** `highest` takes the asset's tier, known once it is ingested. */
function tierOf(asset: AssetEntity): Pick<StoredStaticRendition, 'resolution_tier'> {
  return asset.resolutionTier ? { resolution_tier: asset.resolutionTier } : {};
}

function replace(asset: AssetEntity, old: StoredStaticRendition, next: StoredStaticRendition): StoredStaticRendition[] {
  return asset.staticRenditions.map((f) => (f === old ? next : f));
}
