import { Module } from '@nestjs/common';
import { OutboundModule } from '../outbound/outbound.module';
import { assetsClientProvider } from './assets-client';
import { AssetsController } from './assets.controller';

@Module({ imports: [OutboundModule], controllers: [AssetsController], providers: [assetsClientProvider] })
export class AssetsModule {}
