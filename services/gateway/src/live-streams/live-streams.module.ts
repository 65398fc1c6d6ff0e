import { Module } from '@nestjs/common';
import { liveStreamsClientProvider } from './live-streams-client';
import { LiveStreamsController } from './live-streams.controller';

@Module({ controllers: [LiveStreamsController], providers: [liveStreamsClientProvider] })
export class LiveStreamsModule {}
