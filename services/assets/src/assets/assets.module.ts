import { Module } from '@nestjs/common';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { PlaybackIdsService } from '../playback-ids/playback-ids.service';
import { AssetRepository } from './asset.repository';
import { AssetsGrpcController } from './assets.grpc-controller';
import { AssetsService } from './assets.service';

/** AssetsService of the proto: assets and their playback ids (both tables of this service). */
@Module({
  controllers: [AssetsGrpcController],
  providers: [AssetsService, PlaybackIdsService, AssetRepository, PlaybackIdRepository],
  exports: [AssetsService, AssetRepository, PlaybackIdRepository],
})
export class AssetsModule {}
