import { mkdir } from 'node:fs/promises';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { detectFfmpegFeatures, FfmpegFeatures } from './ffmpeg-features';
import { transcoderTempRoot } from '../temp-dirs';
import { MediaRunner, resolveMediaBinaries } from '@platform/media';

export interface MediaToolkit {
  runner: MediaRunner;
  features: FfmpegFeatures;
}

const RETRY_AFTER_MS = 30_000;

/**
 * The resolved ffmpeg/ffprobe and what they can do, found once per process. Resolution starts at boot
 * without holding it up; the worker waits for it before its first job. A failure (no ffmpeg at all) is
 * logged and tried again 30 s later, so installing ffmpeg does not need a restart.
 */
@Injectable()
export class MediaTools implements OnApplicationBootstrap {
  private readonly logger = new Logger('MediaTools');
  private pending?: Promise<MediaToolkit>;

  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

  onApplicationBootstrap(): void {
    this.get().catch(() => undefined); // logged in get()
  }

  get(): Promise<MediaToolkit> {
    this.pending ??= this.resolve().catch((err: unknown) => {
      // keep the failure for a while: the worker asks on every poll
      setTimeout(() => (this.pending = undefined), RETRY_AFTER_MS).unref();
      this.logger.error(`ffmpeg/ffprobe unavailable, no job can run: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    });
    return this.pending;
  }

  private async resolve(): Promise<MediaToolkit> {
    const binaries = await resolveMediaBinaries(this.config.media);
    for (const b of Object.values(binaries)) this.logger.log(`using ${b.path} (${b.source}): ${b.version}`);
    const runner = new MediaRunner({ ffmpeg: binaries.ffmpeg.path, ffprobe: binaries.ffprobe.path });
    const workDir = transcoderTempRoot(this.config.dataDir);
    await mkdir(workDir, { recursive: true });
    const features = await detectFfmpegFeatures(runner, workDir);
    if (features.legacyHlsMuxer) this.logger.warn('this ffmpeg predates 4.2: variants are written by index and renamed on upload');
    if (!features.ffprobeReadsMpegts) {
      this.logger.warn(
        'this ffprobe cannot read MPEG-TS (the npm-shipped static build crashes on it): MPEG-TS inputs fail and master playlists carry no CODECS; install ffmpeg or set FFPROBE_PATH',
      );
    }
    if (features.font !== 'fontconfig')
      this.logger.warn(`test-asset watermark without fontconfig: ${features.font === 'file' ? 'font file' : 'boxes only, no text'}`);
    return { runner, features };
  }
}
