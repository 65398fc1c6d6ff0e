import { Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { CAPTURE_LAUNCHER, createCaptureLauncher } from '@platform/capture';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions, LIVE_STREAM_LOOKUP, LiveStreamLookup } from '@platform/grpc';
import { live } from '@platform/proto';
import { CaptureJobs } from '../capture/capture-jobs';
import { LiveStreamEventsConsumer } from './live-stream-events.consumer';
import { WebInputRepository } from './web-input.repository';
import { WebInputStates } from './web-input-states';
import { WebInputsGrpcController } from './web-inputs.grpc-controller';
import { WebInputsService } from './web-inputs.service';

const LIVE_CLIENT = 'web-inputs:live-client';

@Module({
  imports: [
    ClientsModule.registerAsync([{ name: LIVE_CLIENT, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('live', config) }]),
  ],
  controllers: [WebInputsGrpcController],
  providers: [
    WebInputsService,
    WebInputRepository,
    WebInputStates,
    CaptureJobs,
    LiveStreamEventsConsumer,
    { provide: CAPTURE_LAUNCHER, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => createCaptureLauncher(config.capture, 'web_input') },
    {
      provide: LIVE_STREAM_LOOKUP,
      inject: [LIVE_CLIENT],
      useFactory: (client: ClientGrpc) => new LiveStreamLookup(client.getService<live.LiveStreamsServiceClient>(live.LIVE_STREAMS_SERVICE_NAME)),
    },
  ],
})
export class WebInputsModule {}
