import { ServiceDatabaseOptions } from '@platform/database';
import { outboxMigrations } from '@platform/events';
import { AssetEntity } from './assets/asset.entity';
import { CreateAssets1732400000100 } from './migrations/1732400000100-create-assets';
import { CreatePlaybackIds1732400000200 } from './migrations/1732400000200-create-playback-ids';
import { UniqueUploadAsset1732400000300 } from './migrations/1732400000300-unique-upload-asset';
import { AssetRecordingTimes1732400000400 } from './migrations/1732400000400-asset-recording-times';
import { AssetWarnings1732400000500 } from './migrations/1732400000500-asset-warnings';
import { AssetClips1732420000100 } from './migrations/1732420000100-asset-clips';
import { AssetDownloads1732430000100 } from './migrations/1732430000100-asset-downloads';
import { AssetThumbnailTime1732440000100 } from './migrations/1732440000100-asset-thumbnail-time';
import { PlaybackIdEntity } from './playback-ids/playback-id.entity';
import { SCHEMA } from './schema';

export const assetsDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [AssetEntity, PlaybackIdEntity],
  migrations: [
    CreateAssets1732400000100,
    CreatePlaybackIds1732400000200,
    UniqueUploadAsset1732400000300,
    AssetRecordingTimes1732400000400,
    AssetWarnings1732400000500,
    AssetClips1732420000100,
    AssetDownloads1732430000100,
    AssetThumbnailTime1732440000100,
    ...outboxMigrations(SCHEMA),
  ],
};
