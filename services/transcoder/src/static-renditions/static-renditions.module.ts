import { Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';
import { assets } from '@platform/proto';
import { MediaModule } from '../media/media.module';
import { MasterHandler } from './master.handler';
import { StaticRenditionHandler } from './static-rendition.handler';
import { GrpcStaticRenditionWork, STATIC_RENDITION_PROCESSING_CLIENT, STATIC_RENDITION_WORK } from './static-rendition-work.port';

const ASSETS_GRPC = 'grpc-client:assets:static-renditions';

/** The task handlers of static MP4 renditions and master MP4s, with their port to the assets service. */
@Module({
  imports: [
    MediaModule,
    ClientsModule.registerAsync([
      { name: ASSETS_GRPC, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('assets', config) },
    ]),
  ],
  providers: [
    {
      provide: STATIC_RENDITION_PROCESSING_CLIENT,
      inject: [ASSETS_GRPC],
      useFactory: (client: ClientGrpc) => client.getService<assets.StaticRenditionProcessingServiceClient>(assets.STATIC_RENDITION_PROCESSING_SERVICE_NAME),
    },
    { provide: STATIC_RENDITION_WORK, useClass: GrpcStaticRenditionWork },
    StaticRenditionHandler,
    MasterHandler,
  ],
  exports: [StaticRenditionHandler, MasterHandler],
})
export class StaticRenditionsModule {}
