import { Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';
import { assets, live } from '@platform/proto';
import { StorageModule } from '@platform/storage';
import { PlaybackRestrictionsModule } from '../playback-restrictions/playback-restrictions.module';
import { SigningKeysModule } from '../signing-keys/signing-keys.module';
import { DeliveryMeteringModule } from './delivery-metering.module';
import { DownloadLookup, STATIC_RENDITIONS_SERVICE } from './download-lookup';
import { DownloadsService } from './downloads.service';
import { PlaybackAccessService } from './playback-access.service';
import { PlaybackGrants } from './playback-grants';
import { PlaybackHostController } from './playback-host.controller';
import { PlaybackHostService } from './playback-host.service';
import { LowLatencyWaits } from './low-latency-waits';
import { ASSETS_SERVICE, LIVE_STREAMS_SERVICE, PlaybackIdLookup } from './playback-id-lookup';

const ASSETS_CLIENT = 'grpc-client:assets';
const LIVE_CLIENT = 'grpc-client:live';

/** The HLS playback host on STREAM_PORT (served by this service's HTTP side). */
@Module({
  imports: [
    SigningKeysModule,
    PlaybackRestrictionsModule,
    StorageModule.forRoot(),
    DeliveryMeteringModule,
    // the channel connects on the first lookup, so the assets service may start later
    ClientsModule.registerAsync([
      { name: ASSETS_CLIENT, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('assets', config) },
      { name: LIVE_CLIENT, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('live', config) },
    ]),
  ],
  controllers: [PlaybackHostController],
  providers: [
    {
      provide: ASSETS_SERVICE,
      inject: [ASSETS_CLIENT],
      useFactory: (client: ClientGrpc) => client.getService<assets.AssetsServiceClient>(assets.ASSETS_SERVICE_NAME),
    },
    {
      provide: LIVE_STREAMS_SERVICE,
      inject: [LIVE_CLIENT],
      useFactory: (client: ClientGrpc) => client.getService<live.LiveStreamsServiceClient>(live.LIVE_STREAMS_SERVICE_NAME),
    },
    {
      provide: STATIC_RENDITIONS_SERVICE,
      inject: [ASSETS_CLIENT],
      useFactory: (client: ClientGrpc) => client.getService<assets.StaticRenditionsServiceClient>(assets.STATIC_RENDITIONS_SERVICE_NAME),
    },
    PlaybackIdLookup,
    DownloadLookup,
    PlaybackGrants,
    PlaybackAccessService,
    PlaybackHostService,
    LowLatencyWaits,
    DownloadsService,
  ],
  exports: [PlaybackAccessService],
})
export class PlaybackHostModule {}
