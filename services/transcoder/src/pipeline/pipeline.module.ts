import { Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';
import { assets } from '@platform/proto';
import { MediaModule } from '../media/media.module';
import { ASSET_PROCESSING, ASSET_PROCESSING_CLIENT, GrpcAssetProcessing } from './asset-processing';
import { DEFAULT_PIPELINE_SETTINGS, PIPELINE_SETTINGS } from './job-context';
import { TranscodePipeline } from './transcode-pipeline';

const ASSETS_GRPC = 'grpc-client:assets';

@Module({
  imports: [
    MediaModule,
    ClientsModule.registerAsync([
      { name: ASSETS_GRPC, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('assets', config) },
    ]),
  ],
  providers: [
    TranscodePipeline,
    { provide: PIPELINE_SETTINGS, useValue: DEFAULT_PIPELINE_SETTINGS },
    {
      provide: ASSET_PROCESSING_CLIENT,
      inject: [ASSETS_GRPC],
      useFactory: (client: ClientGrpc) => client.getService<assets.AssetProcessingServiceClient>(assets.ASSET_PROCESSING_SERVICE_NAME),
    },
    { provide: ASSET_PROCESSING, useClass: GrpcAssetProcessing },
  ],
  exports: [TranscodePipeline, ASSET_PROCESSING, ASSET_PROCESSING_CLIENT, MediaModule],
})
export class PipelineModule {}
