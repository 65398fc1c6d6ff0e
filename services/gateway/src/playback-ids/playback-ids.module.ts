import { Module } from '@nestjs/common';
import { assetsClientProvider } from '../assets/assets-client';
import { liveStreamsClientProvider } from '../live-streams/live-streams-client';
import { PlaybackIdsController } from './playback-ids.controller';

@Module({ controllers: [PlaybackIdsController], providers: [assetsClientProvider, liveStreamsClientProvider] })
export class PlaybackIdsModule {}
