import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@platform/events';
import { BROADCAST_EVENTS, emitBroadcast } from '../spaces/space-events';
import { BroadcastEntity } from './broadcast.entity';
import { BroadcastRepository } from './broadcast.repository';

/** A broadcast's status, each change with its event in the same transaction; a change from a status it is no longer in answers null. */
@Injectable()
export class BroadcastStates {
  private readonly logger = new Logger('BroadcastStates');

  constructor(
    @Inject(BroadcastRepository) private readonly broadcasts: BroadcastRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  toActive(id: string): Promise<BroadcastEntity | null> {
    return this.unitOfWork.run(async (manager, emit) => {
      const moved = await this.broadcasts.transition(manager, id, 'idle');
      if (moved) emitBroadcast(emit, BROADCAST_EVENTS.active, moved);
      return moved;
    });
  }

  /** `why` is logged: Mux has no errored status for a broadcast, so a failure shows as idle plus this line. */
  async toIdle(id: string, why: string, failed: boolean): Promise<BroadcastEntity | null> {
    const moved = await this.unitOfWork.run(async (manager, emit) => {
      const idle = await this.broadcasts.transition(manager, id, 'active');
      if (idle) emitBroadcast(emit, BROADCAST_EVENTS.idle, idle);
      return idle;
    });
    if (moved) {
      const line = `broadcast ${id} is idle: ${why}`;
      if (failed) this.logger.warn(line);
      else this.logger.log(line);
    }
    return moved;
  }
}
