import { Module } from '@nestjs/common';
import { PlaybackHostController } from './playback-host.controller';

@Module({ controllers: [PlaybackHostController] })
export class PlaybackHostModule {}
