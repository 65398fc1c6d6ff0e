import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, RegisteredEvent, subscribeEvents } from '@platform/events';
import { WebInputRepository } from './web-input.repository';
import { WebInputStates } from './web-input-states';

export const CONSUMER_GROUP = 'web-inputs-live';
const CONNECTED = 'video.live_stream.connected';

/**
 * A launching web input is `streaming` once our own ingest has its publish: the live service's `connected`
 * (an encoder session began on the stream) from after the launch. The move is conditional on `launching`,
 * so a redelivered event changes nothing.
 */
@Injectable()
export class LiveStreamEventsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(WebInputRepository) private readonly webInputs: WebInputRepository,
    @Inject(WebInputStates) private readonly states: WebInputStates,
  ) {}

  async onModuleInit(): Promise<void> {
    await subscribeEvents(this.bus, { group: CONSUMER_GROUP, types: [CONNECTED], handle: (event) => this.handle(event) });
  }

  async handle(event: RegisteredEvent<typeof CONNECTED>): Promise<void> {
    const occurredAt = new Date(event.occurred_at);
    for (const webInput of await this.webInputs.findByLiveStream(event.object.id, ['launching'])) {
      if (webInput.launchedAt && occurredAt >= new Date(webInput.launchedAt.getTime() - 1000)) await this.states.toStreaming(webInput.id);
    }
  }
}
