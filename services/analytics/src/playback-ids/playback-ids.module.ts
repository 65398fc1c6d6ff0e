import { Global, Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';
import { assets, live } from '@platform/proto';
import { GrpcPlaybackIdResolver } from './grpc-playback-id-resolver';

const ASSETS_CLIENT = 'analytics:assets-client';
const LIVE_CLIENT = 'analytics:live-client';

/** Exports GrpcPlaybackIdResolver over the assets and live services (channels connect on first use). */
@Global()
@Module({
  imports: [
    ClientsModule.registerAsync([
      { name: ASSETS_CLIENT, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('assets', config) },
      { name: LIVE_CLIENT, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('live', config) },
    ]),
  ],
  providers: [
    {
      provide: GrpcPlaybackIdResolver,
      inject: [ASSETS_CLIENT, LIVE_CLIENT],
      useFactory: (assetsClient: ClientGrpc, liveClient: ClientGrpc) =>
        new GrpcPlaybackIdResolver(
          assetsClient.getService<assets.AssetsServiceClient>(assets.ASSETS_SERVICE_NAME),
          liveClient.getService<live.LiveStreamsServiceClient>(live.LIVE_STREAMS_SERVICE_NAME),
        ),
    },
  ],
  exports: [GrpcPlaybackIdResolver],
})
export class PlaybackIdsModule {}
