import { Module } from '@nestjs/common';
import { CLOCK, systemClock } from '../clock';
import { TracksService } from '../tracks/tracks.service';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { PlaybackIdsService } from '../playback-ids/playback-ids.service';
import { AssetRepository } from './asset.repository';
import { AssetsGrpcController } from './assets.grpc-controller';
import { AssetsService } from './assets.service';

/** AssetsService of the proto: assets, their playback ids and the tracks users add (the tables of this service). */
@Module({
  controllers: [AssetsGrpcController],
  providers: [AssetsService, PlaybackIdsService, TracksService, AssetRepository, PlaybackIdRepository, { provide: CLOCK, useValue: systemClock }],
  exports: [AssetsService, AssetRepository, PlaybackIdRepository],
})
export class AssetsModule {}
