import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { resolveMediaBinaries } from '@platform/media';

/**
 * The ffmpeg and ffprobe the ingest runs, found once before it admits an encoder as the transcoder
 * and the image host find theirs (@platform/media: FFMPEG_PATH/FFPROBE_PATH, else PATH, else the
 * static build shipped in npm). Without any, the names stay `ffmpeg`/`ffprobe` and a publish fails
 * with the reason in the log.
 */
@Injectable()
export class LiveMediaBinaries implements OnModuleInit {
  private readonly logger = new Logger('LiveMediaBinaries');
  ffmpeg = 'ffmpeg';
  ffprobe = 'ffprobe';

  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

  async onModuleInit(): Promise<void> {
    try {
      const { ffmpeg, ffprobe } = await resolveMediaBinaries(this.config.media);
      this.ffmpeg = ffmpeg.path;
      this.ffprobe = ffprobe.path;
      this.logger.log(`ffmpeg ${ffmpeg.version} (${ffmpeg.source}), ffprobe (${ffprobe.source})`);
    } catch (err) {
      this.logger.error(`no ffmpeg/ffprobe: live ingest cannot record (${err instanceof Error ? err.message : String(err)})`);
    }
  }
}
