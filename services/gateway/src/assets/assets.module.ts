import { Module } from '@nestjs/common';
import { OutboundModule } from '../outbound/outbound.module';
import { assetsClientProvider } from './assets-client';
import { AssetTracksController } from './asset-tracks.controller';
import { AssetsController } from './assets.controller';
import { staticRenditionsClientProvider } from './static-renditions-client';
import { StaticRenditionsController } from './static-renditions.controller';

@Module({
  imports: [OutboundModule],
  controllers: [AssetsController, AssetTracksController, StaticRenditionsController],
  providers: [assetsClientProvider, staticRenditionsClientProvider],
})
export class AssetsModule {}
