import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { Emit, UnitOfWork } from '@platform/events';
import { assets } from '@platform/proto';
import { EntityManager } from 'typeorm';
import { AssetEntity, StoredInput } from '../assets/asset.entity';
import { ASSET_EVENTS, emitAssetEvent, emitTrackEvent, emitWarningEvent, TRACK_EVENTS } from '../assets/asset-events';
import { toAssetMessage, toInputMessage } from '../assets/asset.mapper';
import { AssetRepository } from '../assets/asset.repository';
import { notFound } from '../assets/assets.service';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { emitDownloadEvents } from '../static-renditions/download-events';
import { downloadsOnError } from '../static-renditions/download-state';
import { AssetWarningRepository } from './asset-warning.repository';
import { checkErrors, checkProbe, checkWarning } from './probe-fields';
import { isOwnTrack, namedPrimaryAudio } from '../tracks/stored-track';
import { withTrackIds } from './track-ids';

/**
 * What the transcoder reports (internal RPCs). Each call is one state change with its
 * events in one transaction, on the asset row locked for it; each is safe to repeat, since
 * a crashed job is redone from the start.
 */
@Injectable()
export class AssetProcessingService {
  constructor(
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(PlaybackIdRepository) private readonly playbackIds: PlaybackIdRepository,
    @Inject(AssetWarningRepository) private readonly warnings: AssetWarningRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  /** What to ingest; NOT_FOUND once the asset is deleted (the transcoder then cancels the job). */
  async getIngestSpec(id: string): Promise<assets.IngestSpec> {
    const asset = await this.assets.findById(id);
    if (!asset) throw notFound();
    return {
      asset_id: asset.id,
      status: asset.status,
      input: asset.inputs.map(toInputMessage),
      test: asset.test,
      max_resolution_tier: asset.maxResolutionTier,
      encoding_tier: asset.encodingTier,
      video_quality: asset.videoQuality,
      normalize_audio: asset.normalizeAudio,
      ...(asset.sourceAssetId !== null
        ? { clip: { source_asset_id: asset.sourceAssetId, start_time: asset.clipStartTime ?? 0, end_time: asset.clipEndTime ?? 0 } }
        : {}),
    };
  }

  /**
   * Stores the probe's fields (the asset stays as it is: preparing, or ready when a job is
   * redone). The tracks it found replace those it found before (the primary audio track named by the
   * main input's `name` and `language_code`); tracks made on request (text, alternate audio, generated
   * subtitles) stay after them. Emits video.asset.track.created for each track not recorded before, and
   * video.asset.non_standard_input_detected when the reasons are new.
   */
  async recordProbe(request: assets.RecordProbeRequest): Promise<assets.Asset> {
    checkProbe(request);
    return this.transition(request.asset_id, async (asset, manager, emit) => {
      if (asset.status === 'errored') throw DomainError.precondition('Asset is errored; its probe can no longer be recorded');
      const own = asset.tracks.filter(isOwnTrack);
      const probed = (request.tracks ?? []).map((t) => namedPrimaryAudio(t, asset.inputs[0]));
      const { tracks: found, added } = withTrackIds(
        asset.tracks.filter((t) => !isOwnTrack(t)),
        probed,
      );
      const tracks = [...found, ...own];
      const reasons = { ...(request.non_standard_input_reasons ?? {}) };
      const hasReasons = Object.keys(reasons).length > 0;
      const reasonsAreNew = hasReasons && !sameReasons(reasons, asset.nonStandardInputReasons ?? {});
      const updated = await this.save(manager, asset.id, {
        duration: request.duration ?? null,
        maxStoredResolution: request.max_stored_resolution ?? null,
        resolutionTier: request.resolution_tier ?? null,
        maxStoredFrameRate: request.max_stored_frame_rate ?? null,
        aspectRatio: request.aspect_ratio ?? null,
        tracks,
        nonStandardInputReasons: hasReasons ? reasons : null,
        inputInfo: (request.input_info ?? []).map((info, i) => plainInputInfo(info, asset.inputs[i])),
        ...(request.recording_times && request.recording_times.length > 0
          ? { recordingTimes: request.recording_times.map((r) => ({ started_at: r.started_at, duration: r.duration, type: r.type })) }
          : {}),
      });
      for (const track of added) emitTrackEvent(emit, TRACK_EVENTS.created, updated, track);
      if (reasonsAreNew) emitAssetEvent(emit, ASSET_EVENTS.nonStandardInputDetected, updated, await this.playbackIds.findByAssetId(asset.id, manager));
      return updated;
    });
  }

  /** preparing → ready, with video.asset.ready and video.asset.track.ready per track; a repeat changes nothing. */
  async markReady(request: assets.MarkReadyRequest): Promise<assets.Asset> {
    return this.transition(request.asset_id, async (asset, manager, emit) => {
      if (asset.status === 'ready') return asset;
      if (asset.status === 'errored') throw DomainError.precondition('Asset is errored; it cannot become ready');
      const updated = await this.save(manager, asset.id, { status: 'ready' });
      emitAssetEvent(emit, ASSET_EVENTS.ready, updated, await this.playbackIds.findByAssetId(asset.id, manager));
      // a track still being made (generated subtitles) gets its own ready event when it is done
      for (const track of updated.tracks.filter(isFinished)) emitTrackEvent(emit, TRACK_EVENTS.ready, updated, track);
      return updated;
    });
  }

  /** preparing → errored with errors{type, messages}, with video.asset.errored; a repeat changes nothing. */
  async markErrored(request: assets.MarkErroredRequest): Promise<assets.Asset> {
    const errors = checkErrors(request.errors);
    return this.transition(request.asset_id, async (asset, manager, emit) => {
      if (asset.status === 'errored') return asset;
      if (asset.status === 'ready') throw DomainError.precondition('Asset is ready; it cannot become errored');
      const downloads = downloadsOnError(asset);
      const updated = await this.save(manager, asset.id, { status: 'errored', errors, ...downloads.changes });
      const playbackIds = await this.playbackIds.findByAssetId(asset.id, manager);
      emitAssetEvent(emit, ASSET_EVENTS.errored, updated, playbackIds);
      emitDownloadEvents(emit, updated, playbackIds, downloads.events);
      return updated;
    });
  }

  /**
   * Something that leaves the asset as it is went wrong (a ready asset's encoded renditions could not
   * be made): video.asset.warning, once per asset and warning type, whatever the asset's status.
   */
  async reportWarning(request: assets.ReportWarningRequest): Promise<assets.Asset> {
    const warning = checkWarning(request.warning);
    return this.transition(request.asset_id, async (asset, manager, emit) => {
      if (await this.warnings.recordOnce(manager, asset.id, warning)) {
        emitWarningEvent(emit, asset, await this.playbackIds.findByAssetId(asset.id, manager), warning);
      }
      return asset;
    });
  }

  /** Runs `change` on the locked asset (NOT_FOUND when it is gone) and answers the asset as it then is. */
  private async transition(assetId: string, change: (asset: AssetEntity, manager: EntityManager, emit: Emit) => Promise<AssetEntity>): Promise<assets.Asset> {
    return this.unitOfWork.run(async (manager, emit) => {
      const asset = await this.assets.lockById(manager, assetId);
      if (!asset) throw notFound();
      const after = await change(asset, manager, emit);
      return toAssetMessage(after, await this.playbackIds.findByAssetId(assetId, manager));
    });
  }

  private async save(manager: EntityManager, id: string, changes: Parameters<AssetRepository['update']>[2]): Promise<AssetEntity> {
    const updated = await this.assets.update(manager, id, changes);
    if (!updated) throw notFound();
    return updated;
  }
}

/** Media tracks carry no status; a text track is finished unless it is still `preparing` (or failed). */
function isFinished(track: assets.Track): boolean {
  return track.status === undefined || track.status === 'ready';
}

function sameReasons(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Input info as stored: the settings applied to the input as the asset stored them (a direct upload's
 * stored file left out: its settings show no url, as Mux's do), the file as probed, absent fields dropped.
 */
function plainInputInfo(info: assets.InputInfo, input: StoredInput | undefined): assets.InputInfo {
  const clean = <T extends object>(v: T): T => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null)) as T;
  const { object_key: _stored, ...settings } = input ?? {};
  return {
    settings: toInputMessage(settings),
    file: info.file ? { container_format: info.file.container_format, tracks: (info.file.tracks ?? []).map((t) => clean({ ...t })) } : undefined,
  };
}
