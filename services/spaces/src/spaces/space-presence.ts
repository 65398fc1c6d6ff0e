import { Inject, Injectable, Logger } from '@nestjs/common';
import { KeyedSerialQueue } from '@platform/grpc';
import { BroadcastsService } from '../broadcasts/broadcasts.service';
import { SpaceStates } from './space-states';

/**
 * Turns who is connected into the space's status: active once someone (not the hidden compositor) is in it,
 * idle when the last one left, and then its broadcasts stop. Changes of one space are handled in order, each
 * reading the count as it is then, so a burst of joins and leaves ends in the status the room is in.
 */
@Injectable()
export class SpacePresence {
  private readonly logger = new Logger('SpacePresence');
  private readonly serial = new KeyedSerialQueue();

  constructor(
    @Inject(SpaceStates) private readonly states: SpaceStates,
    @Inject(BroadcastsService) private readonly broadcasts: BroadcastsService,
  ) {}

  /** `visibleCount` is read when the change is handled. */
  changed(spaceId: string, visibleCount: () => number): Promise<void> {
    return this.serial
      .run(spaceId, async () => {
        if (visibleCount() > 0) {
          await this.states.toActive(spaceId);
          return;
        }
        if (await this.states.toIdle(spaceId)) await this.broadcasts.stopAll(spaceId);
      })
      .catch((err: unknown) => this.logger.error(`space ${spaceId}: could not update its status: ${String(err)}`));
  }
}
