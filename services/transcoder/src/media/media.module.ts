import { Module } from '@nestjs/common';
import { MediaTools } from './media-tools';

@Module({ providers: [MediaTools], exports: [MediaTools] })
export class MediaModule {}
