import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { AssetProcessingGrpcController } from './asset-processing.grpc-controller';
import { AssetProcessingService } from './asset-processing.service';
import { AssetWarningRepository } from './asset-warning.repository';
import { TrackProcessingService } from '../tracks/track-processing.service';

@Module({
  imports: [AssetsModule],
  controllers: [AssetProcessingGrpcController],
  providers: [AssetProcessingService, TrackProcessingService, AssetWarningRepository],
})
export class AssetProcessingModule {}
