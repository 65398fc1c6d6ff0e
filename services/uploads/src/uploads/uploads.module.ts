import { Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';
import { assets } from '@platform/proto';
import { CLOCK, systemClock } from '../clock';
import { ASSETS_GRPC_CLIENT, ASSETS_PORT, GrpcAssets } from './assets-port';
import { UploadRepository } from './upload.repository';
import { UploadsGrpcController } from './uploads.grpc-controller';
import { UploadsService } from './uploads.service';

const ASSETS_GRPC = 'grpc-client:assets';

/** UploadsService of the proto, and what the upload host and the completion share. */
@Module({
  imports: [
    // the channel connects on first use, so the assets service may start later
    ClientsModule.registerAsync([
      { name: ASSETS_GRPC, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('assets', config) },
    ]),
  ],
  controllers: [UploadsGrpcController],
  providers: [
    UploadsService,
    UploadRepository,
    { provide: CLOCK, useValue: systemClock },
    {
      provide: ASSETS_GRPC_CLIENT,
      inject: [ASSETS_GRPC],
      useFactory: (client: ClientGrpc) => client.getService<assets.AssetsServiceClient>(assets.ASSETS_SERVICE_NAME),
    },
    { provide: ASSETS_PORT, useClass: GrpcAssets },
  ],
  exports: [UploadsService, UploadRepository, ASSETS_PORT, CLOCK],
})
export class UploadsModule {}
