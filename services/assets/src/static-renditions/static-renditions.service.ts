import { passthroughProblems } from '@platform/api-rules';
import { STATIC_RENDITION_RESOLUTIONS } from '@platform/api-shapes';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { newId } from '@platform/ids';
import { assets } from '@platform/proto';
import { OBJECT_STORE, ObjectStore, assetKeys } from '@platform/storage';
import { MP4_SUPPORT } from '../assets/asset-settings';
import { toAssetMessage } from '../assets/asset.mapper';
import { AssetRepository } from '../assets/asset.repository';
import { notFound as assetNotFound } from '../assets/assets.service';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { Clock, CLOCK } from '../clock';
import { DownloadChanges } from './download-changes';
import { toStaticRenditionFile } from './static-rendition.mapper';
import { decideCreate, decideDelete, decideMp4Support } from './static-rendition-requests';
import { decidePlan, decideRecord } from './static-rendition-work';

const oneOf = (values: readonly string[]) => `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/**
 * Static MP4/M4A renditions (spec 2.1 `static_renditions`, 4.2 mp4-support; Mux's Static Renditions
 * API): the requests of the API, the playback host's lookup of a ready file, and the transcoder's
 * plans and reports. The rules are in the `decide…` functions; every change is one transaction on the
 * locked asset with its events.
 */
@Injectable()
export class StaticRenditionsService {
  constructor(
    @Inject(DownloadChanges) private readonly changes: DownloadChanges,
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(PlaybackIdRepository) private readonly playbackIds: PlaybackIdRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async updateMp4Support(request: assets.UpdateMp4SupportRequest): Promise<assets.Asset> {
    if (!(MP4_SUPPORT as readonly string[]).includes(request.mp4_support)) throw DomainError.invalid(`mp4_support: ${oneOf(MP4_SUPPORT)}`);
    const { asset } = await this.changes.apply(request.asset_id, (a) => decideMp4Support(a, request.mp4_support, this.clock.now()));
    return toAssetMessage(asset, await this.playbackIds.findByAssetId(asset.id));
  }

  async create(request: assets.CreateStaticRenditionRequest): Promise<assets.StaticRenditionFile> {
    const invalid: string[] = [];
    if (!(STATIC_RENDITION_RESOLUTIONS as readonly string[]).includes(request.resolution)) invalid.push(`resolution: ${oneOf(STATIC_RENDITION_RESOLUTIONS)}`);
    invalid.push(...passthroughProblems(request.passthrough));
    if (invalid.length > 0) throw DomainError.invalid(...invalid);
    const id = newId();
    return (await this.changes.apply(request.asset_id, (a) => decideCreate(a, request, id, this.clock.now()))).result;
  }

  async delete(request: assets.DeleteStaticRenditionRequest): Promise<void> {
    await this.changes.apply(request.asset_id, (a) => decideDelete(a, request.static_rendition_id, this.clock.now()));
  }

  /** A ready file of the asset by name (the playback host serves only those); NOT_FOUND otherwise. */
  async lookup(request: assets.LookupStaticRenditionRequest): Promise<assets.StaticRenditionFile> {
    const asset = await this.assets.findById(request.asset_id);
    if (!asset) throw assetNotFound();
    const file = asset.staticRenditions.find((f) => f.name === request.name && f.status === 'ready');
    if (!file) throw DomainError.notFound(`Static rendition ${request.name}`);
    return toStaticRenditionFile(file, asset.id);
  }

  plan(request: assets.StaticRenditionWorkRequest): Promise<assets.StaticRenditionWork> {
    return this.changes.apply(request.asset_id, (a) => decidePlan(a, request.target)).then(({ result }) => result);
  }

  /** The size comes from the store itself: what was stored is what is reported. */
  async record(request: assets.RecordStaticRenditionRequest): Promise<assets.Asset> {
    const stored = request.status === 'ready' ? await this.store.stat(assetKeys.staticRendition(request.asset_id, request.name)) : undefined;
    const made = { width: request.width, height: request.height, bitrate: request.bitrate, filesize: stored?.size };
    const { asset } = await this.changes.apply(request.asset_id, (a) => decideRecord(a, request, made, this.clock.now()));
    return toAssetMessage(asset, await this.playbackIds.findByAssetId(asset.id));
  }
}
