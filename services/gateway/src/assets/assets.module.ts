import { Module } from '@nestjs/common';
import { assetsClientProvider } from './assets-client';
import { AssetsController } from './assets.controller';

@Module({ controllers: [AssetsController], providers: [assetsClientProvider] })
export class AssetsModule {}
