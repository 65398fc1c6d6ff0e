import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ClientGrpc, ClientsModule } from '@nestjs/microservices';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { createCaptureLauncher } from '@platform/capture';
import { grpcClientOptions, LIVE_STREAM_LOOKUP, LiveStreamLookup } from '@platform/grpc';
import { live, playbackAuth } from '@platform/proto';
import { BroadcastRepository } from '../broadcasts/broadcast.repository';
import { BroadcastStates } from '../broadcasts/broadcast-states';
import { BroadcastsService } from '../broadcasts/broadcasts.service';
import { CaptureCompositorJobs } from '../broadcasts/capture-compositor-jobs';
import { COMPOSITOR_JOBS } from '../broadcasts/compositor-jobs';
import { JoinTokens } from '../join/join-tokens';
import { RealtimeHost } from '../realtime-host';
import { SpaceRepository } from './space.repository';
import { SpacePresence } from './space-presence';
import { SpaceStates } from './space-states';
import { SpacesGrpcController } from './spaces.grpc-controller';
import { SpacesService } from './spaces.service';

const LIVE_CLIENT = 'spaces:live-client';
const PLAYBACK_AUTH_CLIENT = 'spaces:playback-auth-client';

@Module({
  imports: [
    ClientsModule.registerAsync([
      { name: LIVE_CLIENT, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('live', config) },
      { name: PLAYBACK_AUTH_CLIENT, inject: [PLATFORM_CONFIG], useFactory: (config: PlatformConfig) => grpcClientOptions('playback-auth', config) },
    ]),
  ],
  controllers: [SpacesGrpcController],
  providers: [
    SpacesService,
    SpaceRepository,
    SpaceStates,
    SpacePresence,
    BroadcastsService,
    BroadcastRepository,
    BroadcastStates,
    RealtimeHost,
    {
      provide: JoinTokens,
      inject: [PLAYBACK_AUTH_CLIENT, SpaceRepository, BroadcastRepository],
      useFactory: (client: ClientGrpc, spaces: SpaceRepository, broadcasts: BroadcastRepository) =>
        new JoinTokens(
          client.getService<playbackAuth.SigningKeysServiceClient>(playbackAuth.SIGNING_KEYS_SERVICE_NAME),
          async (id) => !!(await spaces.findById(id)),
          async (spaceId, broadcastId) => (await broadcasts.find(spaceId, broadcastId))?.status === 'active',
        ),
    },
    {
      provide: COMPOSITOR_JOBS,
      inject: [JoinTokens, PLATFORM_CONFIG],
      useFactory: async (tokens: JoinTokens, config: PlatformConfig) => {
        const jobs = new CaptureCompositorJobs(await createCaptureLauncher(config.capture, 'broadcast'), tokens, config);
        await jobs.adoptOrphans();
        return jobs;
      },
    },
    {
      provide: LIVE_STREAM_LOOKUP,
      inject: [LIVE_CLIENT],
      useFactory: (client: ClientGrpc) => new LiveStreamLookup(client.getService<live.LiveStreamsServiceClient>(live.LIVE_STREAMS_SERVICE_NAME)),
    },
  ],
})
export class SpacesModule implements OnApplicationShutdown {
  constructor(@Inject(COMPOSITOR_JOBS) private readonly compositors: CaptureCompositorJobs) {}

  /** Compositors that cannot outlive the service stop with it (their broadcasts go idle). */
  onApplicationShutdown(): Promise<void> {
    return this.compositors.close();
  }
}
