import { Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';
import { assets } from '@platform/proto';
import { TranscriptionVocabulariesModule } from '../transcription-vocabularies/transcription-vocabularies.module';
import { ASSET_PROCESSING_GRPC_CLIENT, ASSETS_GRPC_CLIENT, ASSETS_PORT, GrpcAssets } from './assets-port';
import { LiveStreamPlaybackIdsService } from './live-stream-playback-ids.service';
import { LiveStreamRepository } from './live-stream.repository';
import { LiveStreamsGrpcController } from './live-streams.grpc-controller';
import { LiveStreamsService } from './live-streams.service';
import { LiveStreamIngest } from './live-stream-ingest.service';
import { RecordingAssets } from './recording-assets';
import { OutboundPolicy } from './outbound-policy';
import { SimulcastTargetStates, SimulcastTargetsService } from './simulcast-targets.service';
import { VocabularyEventsConsumer } from './vocabulary-events.consumer';

const ASSETS_GRPC = 'grpc-client:assets';

/** LiveStreamsService of the proto: live streams, their playback ids and simulcast targets. */
@Module({
  imports: [
    TranscriptionVocabulariesModule,
    // the channel connects on first use, so the assets service may start later
    ClientsModule.registerAsync([
      { name: ASSETS_GRPC, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('assets', config) },
    ]),
  ],
  controllers: [LiveStreamsGrpcController],
  providers: [
    LiveStreamsService,
    LiveStreamIngest,
    RecordingAssets,
    LiveStreamPlaybackIdsService,
    SimulcastTargetsService,
    SimulcastTargetStates,
    VocabularyEventsConsumer,
    LiveStreamRepository,
    {
      provide: ASSETS_GRPC_CLIENT,
      inject: [ASSETS_GRPC],
      useFactory: (client: ClientGrpc) => client.getService<assets.AssetsServiceClient>(assets.ASSETS_SERVICE_NAME),
    },
    {
      provide: ASSET_PROCESSING_GRPC_CLIENT,
      inject: [ASSETS_GRPC],
      useFactory: (client: ClientGrpc) => client.getService<assets.AssetProcessingServiceClient>(assets.ASSET_PROCESSING_SERVICE_NAME),
    },
    { provide: ASSETS_PORT, useClass: GrpcAssets },
    { provide: OutboundPolicy, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => new OutboundPolicy(config.outboundAllow, config.rtmpPort) },
  ],
  exports: [LiveStreamsService, LiveStreamIngest, RecordingAssets, SimulcastTargetStates, LiveStreamRepository, ASSETS_PORT, OutboundPolicy],
})
export class LiveStreamsModule {}
