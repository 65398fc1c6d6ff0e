import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, PlatformEvent, topicOf } from '@platform/events';
import { LiveStreamsService } from './live-streams.service';

export const CONSUMER_GROUP = 'live-vocabularies';
export const VOCABULARY_DELETED = 'video.transcription_vocabulary.deleted';

/**
 * Spec 4.8: a deleted vocabulary is disassociated from every live stream's generated subtitles.
 * Idempotent: a stream that no longer names the id is left alone (no event).
 */
@Injectable()
export class VocabularyEventsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(LiveStreamsService) private readonly streams: LiveStreamsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe({ group: CONSUMER_GROUP, topics: [topicOf(VOCABULARY_DELETED)], handle: (event) => this.handle(event) });
  }

  async handle(event: PlatformEvent): Promise<void> {
    if (event.type !== VOCABULARY_DELETED) return;
    await this.streams.forgetVocabulary(event.object.id);
  }
}
