import { Module } from '@nestjs/common';
import { OutboundModule } from '../outbound/outbound.module';
import { liveStreamsClientProvider } from './live-streams-client';
import { LiveStreamsController } from './live-streams.controller';

@Module({ imports: [OutboundModule], controllers: [LiveStreamsController], providers: [liveStreamsClientProvider] })
export class LiveStreamsModule {}
