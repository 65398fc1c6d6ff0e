import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, RegisteredEvent, subscribeEvents } from '@platform/events';
import { LiveStreamsService } from './live-streams.service';

export const CONSUMER_GROUP = 'live-vocabularies';
export const VOCABULARY_DELETED = 'video.transcription_vocabulary.deleted';

/**
 * Spec 4.8: a deleted vocabulary is disassociated from every live stream's generated subtitles.
 * Each event is validated against the registry first (an invalid one is a dead letter) and handled
 * once: the streams' changes, their events and the event id in `live.processed_events` commit
 * together.
 */
@Injectable()
export class VocabularyEventsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(LiveStreamsService) private readonly streams: LiveStreamsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await subscribeEvents(this.bus, { group: CONSUMER_GROUP, types: [VOCABULARY_DELETED], handle: (event) => this.handle(event) });
  }

  async handle(event: RegisteredEvent<typeof VOCABULARY_DELETED>): Promise<void> {
    await this.streams.forgetVocabulary(event.object.id, { consumer: CONSUMER_GROUP, eventId: event.id });
  }
}
