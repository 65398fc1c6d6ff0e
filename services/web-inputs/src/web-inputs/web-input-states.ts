import { Inject, Injectable, Logger } from '@nestjs/common';
import { toWebInput } from '@platform/api-shapes';
import { Emit, EventTypeFor, UnitOfWork } from '@platform/events';
import { WebInputEntity, WebInputStatus } from './web-input.entity';
import { toWebInputMessage } from './web-input.mapper';
import { WebInputRepository } from './web-input.repository';

export const WEB_INPUT_EVENTS = {
  created: 'video.web_input.created',
  updated: 'video.web_input.updated',
  launching: 'video.web_input.launching',
  streaming: 'video.web_input.streaming',
  idle: 'video.web_input.idle',
  deleted: 'video.web_input.deleted',
} as const;

/** The data is the web input's API body (passthrough included), from the one mapper the gateway uses too. */
export function emitWebInput(emit: Emit, type: EventTypeFor<'web_input'>, webInput: WebInputEntity): void {
  emit(type, toWebInput(toWebInputMessage(webInput)));
}

/**
 * The status changes of a web input, each with its event in the same transaction: idle → launching (launch),
 * launching → streaming (our ingest saw the publish), launching|streaming → idle (shutdown, timeout, the
 * browser or encoder died). A change from a status the web input is no longer in does nothing and answers null.
 */
@Injectable()
export class WebInputStates {
  private readonly logger = new Logger('WebInputStates');

  constructor(
    @Inject(WebInputRepository) private readonly webInputs: WebInputRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  toLaunching(id: string): Promise<WebInputEntity | null> {
    return this.move(id, ['idle'], 'launching', WEB_INPUT_EVENTS.launching);
  }

  toStreaming(id: string): Promise<WebInputEntity | null> {
    return this.move(id, ['launching'], 'streaming', WEB_INPUT_EVENTS.streaming);
  }

  /** `why` is logged: Mux has no errored status for a web input, so a failure shows as idle plus this line. */
  async toIdle(id: string, why: string, failed: boolean): Promise<WebInputEntity | null> {
    const moved = await this.move(id, ['launching', 'streaming'], 'idle', WEB_INPUT_EVENTS.idle);
    if (moved) {
      const line = `web input ${id} is idle: ${why}`;
      if (failed) this.logger.warn(line);
      else this.logger.log(line);
    }
    return moved;
  }

  private move(id: string, from: WebInputStatus[], to: WebInputStatus, event: EventTypeFor<'web_input'>): Promise<WebInputEntity | null> {
    return this.unitOfWork.run(async (manager, emit) => {
      const moved = await this.webInputs.transition(manager, id, from, to);
      if (moved) emitWebInput(emit, event, moved);
      return moved;
    });
  }
}
