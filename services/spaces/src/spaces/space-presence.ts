import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { KeyedSerialQueue } from '@platform/grpc';
import { BroadcastsService } from '../broadcasts/broadcasts.service';
import { SpaceStates } from './space-states';

/**
 * Turns who is connected into the space's status: active once someone (not the hidden compositor) is in it,
 * idle when the room has stayed empty for the empty grace (SPACES_EMPTY_GRACE_SECONDS), and then its
 * broadcasts stop. The grace keeps a session through a reload of the last participant's page or a short
 * drop of its connection (LiveKit keeps an empty room open the same way, its `departure_timeout`).
 * Changes of one space are handled in order, each reading the count as it is then, so a burst of joins and
 * leaves ends in the status the room is in.
 */
@Injectable()
export class SpacePresence implements OnModuleDestroy {
  private readonly logger = new Logger('SpacePresence');
  private readonly serial = new KeyedSerialQueue();
  /** Empty spaces waiting out the grace: the timer that reads their count again when it ends. */
  private readonly emptied = new Map<string, NodeJS.Timeout>();
  private readonly emptyGraceMs: number;

  constructor(
    @Inject(SpaceStates) private readonly states: SpaceStates,
    @Inject(BroadcastsService) private readonly broadcasts: BroadcastsService,
    @Inject(PLATFORM_CONFIG) config: Pick<PlatformConfig, 'spaces'>,
  ) {
    this.emptyGraceMs = config.spaces.emptyGraceMs;
  }

  /** `visibleCount` is read when the change is handled. */
  changed(spaceId: string, visibleCount: () => number): Promise<void> {
    return this.serial
      .run(spaceId, async () => {
        if (visibleCount() > 0) {
          this.cancelGrace(spaceId);
          await this.states.toActive(spaceId);
          return;
        }
        if (this.emptyGraceMs === 0) return this.idle(spaceId);
        if (this.emptied.has(spaceId)) return;
        const timer = setTimeout(() => {
          this.emptied.delete(spaceId);
          const stillEmpty = async () => (visibleCount() === 0 ? this.idle(spaceId) : undefined);
          this.serial.run(spaceId, stillEmpty).catch((err: unknown) => this.failed(spaceId, err));
        }, this.emptyGraceMs);
        this.emptied.set(spaceId, timer);
      })
      .catch((err: unknown) => this.failed(spaceId, err));
  }

  onModuleDestroy(): void {
    // a space left waiting is made idle by the next start (SpacesService.idleAll)
    for (const timer of this.emptied.values()) clearTimeout(timer);
    this.emptied.clear();
  }

  private async idle(spaceId: string): Promise<void> {
    if (await this.states.toIdle(spaceId)) await this.broadcasts.stopAll(spaceId);
  }

  private cancelGrace(spaceId: string): void {
    clearTimeout(this.emptied.get(spaceId));
    this.emptied.delete(spaceId);
  }

  private failed(spaceId: string, err: unknown): void {
    this.logger.error(`space ${spaceId}: could not update its status: ${String(err)}`);
  }
}
