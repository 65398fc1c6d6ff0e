import { Module } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { grpcClientOptions } from '@platform/grpc';
import { live } from '@platform/proto';
import { CAPTURE_LAUNCHER } from '../capture/capture-launcher';
import { CaptureJobs } from '../capture/capture-jobs';
import { LocalProcessLauncher } from '../capture/local-process-launcher';
import { LiveStreamEventsConsumer } from './live-stream-events.consumer';
import { LIVE_STREAM_LOOKUP, LiveStreamLookup } from './live-stream-lookup';
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
    { provide: CAPTURE_LAUNCHER, useFactory: () => new LocalProcessLauncher() },
    {
      provide: LIVE_STREAM_LOOKUP,
      inject: [LIVE_CLIENT],
      useFactory: (client: ClientGrpc) => new LiveStreamLookup(client.getService<live.LiveStreamsServiceClient>(live.LIVE_STREAMS_SERVICE_NAME)),
    },
  ],
})
export class WebInputsModule {}
