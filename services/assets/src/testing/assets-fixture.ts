import { loadConfig } from '@platform/config';
import { fakeUnitOfWork } from '@platform/testing';
import { AssetEntity } from '../assets/asset.entity';
import { AssetRepository } from '../assets/asset.repository';
import { AssetsService } from '../assets/assets.service';
import { PlaybackIdEntity, PlaybackPolicy } from '../playback-ids/playback-id.entity';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { PlaybackIdsService } from '../playback-ids/playback-ids.service';
import { AssetProcessingService } from '../processing/asset-processing.service';
import { MasterAccessService } from '../masters/master-access.service';
import { DownloadChanges } from '../static-renditions/download-changes';
import { NO_DOWNLOADS } from '../static-renditions/download-state';
import { StaticRenditionsService } from '../static-renditions/static-renditions.service';
import { TrackProcessingService } from '../tracks/track-processing.service';
import { TracksService } from '../tracks/tracks.service';
import { InMemoryObjectStore } from './in-memory-object-store';
import { InMemoryAssetRepository, InMemoryAssetWarningRepository, InMemoryPlaybackIdRepository } from './in-memory-repositories';

/**
 * The services of this app over in-memory repositories, object store and unit of work; `clock.now` is
 * settable (static renditions and masters read it), `config` takes the environment's defaults.
 */
export function assetsFixture(env: NodeJS.ProcessEnv = {}) {
  const assets = new InMemoryAssetRepository();
  const playbackIds = new InMemoryPlaybackIdRepository();
  const store = new InMemoryObjectStore();
  const warnings = new InMemoryAssetWarningRepository();
  const { unitOfWork, manager, events } = fakeUnitOfWork();
  const assetRepository = assets as unknown as AssetRepository;
  const playbackIdRepository = playbackIds as unknown as PlaybackIdRepository;
  const service = new AssetsService(assetRepository, playbackIdRepository, unitOfWork, store);
  /** The services' clock: `clock.at` moves it (2024-01-02 unless set). */
  const clock = {
    at: new Date(Date.UTC(2024, 0, 2)),
    now(): Date {
      return new Date(this.at);
    },
  };
  const config = loadConfig({ STREAM_BASE_URL: 'https://stream.test', ...env });
  const downloads = new DownloadChanges(assetRepository, playbackIdRepository, unitOfWork, store);
  return {
    clock,
    assets,
    playbackIds,
    warnings,
    store,
    manager,
    events,
    service,
    playback: new PlaybackIdsService(assetRepository, playbackIdRepository, unitOfWork),
    processing: new AssetProcessingService(assetRepository, playbackIdRepository, warnings, unitOfWork),
    tracks: new TracksService(assetRepository, playbackIdRepository, unitOfWork, store, clock),
    trackProcessing: new TrackProcessingService(assetRepository, playbackIdRepository, unitOfWork),
    config,
    staticRenditions: new StaticRenditionsService(downloads, assetRepository, playbackIdRepository, store, clock),
    masters: new MasterAccessService(downloads, assetRepository, playbackIdRepository, store, config, clock),

    /** A stored asset (created 2024-01-01 unless said), as if made by CreateAsset; events are not recorded. */
    stored(fields: Partial<AssetEntity> = {}, policies: PlaybackPolicy[] = []): { asset: AssetEntity; playbackIds: PlaybackIdEntity[] } {
      const id = fields.id ?? `asset${assets.rows.size + 1}`;
      const asset: AssetEntity = {
        id,
        status: 'preparing',
        inputs: [{ url: 'https://media.example/in.mp4' }],
        passthrough: null,
        maxResolutionTier: '1080p',
        encodingTier: 'smart',
        videoQuality: 'plus',
        mp4Support: 'none',
        masterAccess: 'none',
        normalizeAudio: false,
        test: false,
        ingestType: 'on_demand_url',
        uploadId: null,
        liveStreamId: null,
        sourceAssetId: null,
        clipStartTime: null,
        clipEndTime: null,
        duration: null,
        maxStoredResolution: null,
        resolutionTier: null,
        maxStoredFrameRate: null,
        aspectRatio: null,
        tracks: [],
        nonStandardInputReasons: null,
        inputInfo: null,
        errors: null,
        recordingTimes: null,
        ...NO_DOWNLOADS,
        thumbnailTime: null,
        createdAt: new Date(Date.UTC(2024, 0, 1)),
        updatedAt: null,
        ...fields,
      };
      assets.rows.set(id, structuredClone(asset));
      const made = policies.map((policy, i) => ({ id: `${id}-pb${i}`, assetId: id, policy, createdAt: asset.createdAt }));
      playbackIds.rows.push(...structuredClone(made));
      return { asset, playbackIds: made };
    },
  };
}
