import { Module } from '@nestjs/common';
import { PlaybackHostModule } from '../playback-host/playback-host.module';
import { AnimatedImages } from './animated-images';
import { AssetMedia } from './asset-media';
import { ImageCache } from './image-cache';
import { ImageHostController } from './image-host.controller';
import { ImageHostService } from './image-host.service';
import { ImageRenderer } from './image-renderer';
import { Storyboards } from './storyboards';
import { Thumbnails } from './thumbnails';

/**
 * The image host on IMAGE_PORT ({image_url}), beside the playback host in this service's HTTP side: who may
 * see an image is decided as for video (PlaybackAccessService). Imported before PlaybackHostModule so its
 * routes are matched before the playback host's catch-alls.
 */
@Module({
  imports: [PlaybackHostModule],
  controllers: [ImageHostController],
  providers: [ImageHostService, ImageCache, AssetMedia, ImageRenderer, Thumbnails, AnimatedImages, Storyboards],
})
export class ImageHostModule {}
