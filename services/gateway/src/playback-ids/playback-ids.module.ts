import { Module } from '@nestjs/common';
import { assetsClientProvider } from '../assets/assets-client';
import { PlaybackIdsController } from './playback-ids.controller';

@Module({ controllers: [PlaybackIdsController], providers: [assetsClientProvider] })
export class PlaybackIdsModule {}
