import { Module } from '@nestjs/common';
import { OutboundModule } from '../outbound/outbound.module';
import { liveStreamsClientProvider } from './live-streams-client';
import { LiveStreamsController } from './live-streams.controller';
import { NewAssetStaticRenditionsController } from './new-asset-static-renditions.controller';

@Module({ imports: [OutboundModule], controllers: [LiveStreamsController, NewAssetStaticRenditionsController], providers: [liveStreamsClientProvider] })
export class LiveStreamsModule {}
