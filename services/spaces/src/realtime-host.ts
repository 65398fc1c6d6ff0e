import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { BroadcastsService } from './broadcasts/broadcasts.service';
import { JoinTokens } from './join/join-tokens';
import { RealtimeServer } from './realtime';
import { SpacePresence } from './spaces/space-presence';
import { SpacesService } from './spaces/spaces.service';

/**
 * The spaces real-time host on SPACES_PORT (join page, browser client, compositor page, signaling, SFU). It
 * opens only after the spaces a previous run left active are idle again: nobody is connected to a new process.
 */
@Injectable()
export class RealtimeHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Realtime');
  readonly server: RealtimeServer;

  constructor(
    @Inject(JoinTokens) tokens: JoinTokens,
    @Inject(SpacePresence) presence: SpacePresence,
    @Inject(SpacesService) private readonly spaces: SpacesService,
    @Inject(BroadcastsService) broadcasts: BroadcastsService,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
  ) {
    const changed = (spaceId: string, hidden: boolean) => (hidden ? undefined : presence.changed(spaceId, () => this.server.visibleCount(spaceId)));
    this.server = new RealtimeServer({
      host: config.host,
      port: config.spaces.port,
      verifyToken: (token) => tokens.verify(token),
      listener: {
        onParticipantJoined: (spaceId, participant) => changed(spaceId, participant.hidden),
        onParticipantLeft: (spaceId, participantId, hidden) => {
          const broadcastId = hidden ? JoinTokens.compositedBroadcast(participantId) : undefined;
          return broadcastId ? broadcasts.compositorLeft(spaceId, broadcastId) : changed(spaceId, hidden);
        },
      },
      disconnectGraceMs: config.spaces.leaveGraceMs,
      participantLimit: config.spaces.participantLimit,
      ice: {
        ...(config.spaces.icePorts ? { icePortRange: config.spaces.icePorts } : {}),
        ...(config.spaces.iceAddresses.length > 0 ? { iceAdditionalHostAddresses: config.spaces.iceAddresses } : {}),
      },
      logger: { log: (m) => this.logger.log(m), warn: (m) => this.logger.warn(m) },
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.spaces.idleAll();
    const { port } = await this.server.listen();
    this.logger.log(`spaces real-time host on port ${port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server.close();
  }
}
