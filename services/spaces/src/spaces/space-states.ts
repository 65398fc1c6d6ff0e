import { Inject, Injectable } from '@nestjs/common';
import { UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { BroadcastRepository } from '../broadcasts/broadcast.repository';
import { emitSpace, SPACE_EVENTS } from './space-events';
import { SpaceEntity } from './space.entity';
import { SpaceRepository } from './space.repository';

/**
 * A space's status, each change with its event in the same transaction: idle → active with a new
 * `active_session_id` (the first participant connected), active → idle (the last one left). A change from a
 * status the space is no longer in does nothing and answers null.
 */
@Injectable()
export class SpaceStates {
  constructor(
    @Inject(SpaceRepository) private readonly spaces: SpaceRepository,
    @Inject(BroadcastRepository) private readonly broadcasts: BroadcastRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  toActive(id: string): Promise<SpaceEntity | null> {
    return this.unitOfWork.run(async (manager, emit) => {
      const moved = await this.spaces.transition(manager, id, 'idle', newId());
      if (moved) emitSpace(emit, SPACE_EVENTS.active, moved, (await this.broadcasts.ofSpaces([id], manager)).get(id) ?? []);
      return moved;
    });
  }

  toIdle(id: string): Promise<SpaceEntity | null> {
    return this.unitOfWork.run(async (manager, emit) => {
      const moved = await this.spaces.transition(manager, id, 'active', null);
      if (moved) emitSpace(emit, SPACE_EVENTS.idle, moved, (await this.broadcasts.ofSpaces([id], manager)).get(id) ?? []);
      return moved;
    });
  }
}
