import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { AssetProcessingGrpcController } from './asset-processing.grpc-controller';
import { AssetProcessingService } from './asset-processing.service';

@Module({
  imports: [AssetsModule],
  controllers: [AssetProcessingGrpcController],
  providers: [AssetProcessingService],
})
export class AssetProcessingModule {}
