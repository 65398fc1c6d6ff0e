import { Logger } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { CaptureLauncher, CaptureReport, findChromium, viewportOf } from '@platform/capture';
import { resolveMediaBinaries } from '@platform/media';
import { JoinTokens } from '../join/join-tokens';
import { BroadcastEntity } from './broadcast.entity';
import { CompositorJobs } from './compositor-jobs';

/** A broadcast has no timeout of its own: a live stream's longest continuous session (spec 8: 12 h). */
export const BROADCAST_MAX_SECONDS = 43_200;

/**
 * Each broadcast's compositor is a capture job (the web inputs' worker: a browser on its own display and sound
 * sink, ffmpeg to our RTMP ingest) loading this service's compositor page, which joins the space hidden and lays
 * the participants out. The job is the broadcast's id.
 */
export class CaptureCompositorJobs implements CompositorJobs {
  private readonly logger = new Logger('CompositorJobs');
  private readonly endings = new Map<string, (reason: string, failed: boolean) => void>();
  private ffmpegPath: Promise<string> | undefined;

  constructor(
    private readonly launcher: CaptureLauncher,
    private readonly tokens: JoinTokens,
    private readonly config: PlatformConfig,
  ) {}

  /** Pods a previous run left are stopped: their broadcasts were made idle when this service started. */
  async adoptOrphans(): Promise<void> {
    const orphans = await this.launcher.adopt((jobId, report) => this.onReport(jobId, report));
    await Promise.all(orphans.map((id) => this.launcher.stop(id)));
  }

  async start(broadcast: BroadcastEntity, streamKey: string, onEnded: (reason: string, failed: boolean) => void): Promise<void> {
    this.ffmpegPath ??= resolveMediaBinaries(this.config.media).then((b) => b.ffmpeg.path);
    const ffmpegPath = await this.ffmpegPath.catch((err: unknown) => {
      this.ffmpegPath = undefined;
      throw err;
    });
    const { width, height } = viewportOf(broadcast.resolution);
    const token = await this.tokens.signCompositor(broadcast.spaceId, broadcast.id, BROADCAST_MAX_SECONDS + 600);
    this.endings.set(broadcast.id, onEnded);
    await this.launcher
      .launch(
        {
          jobId: broadcast.id,
          url: compositorUrl(this.config.spaces.baseUrl, broadcast, token),
          width,
          height,
          fps: this.config.capture.fps,
          rtmpUrl: `${this.config.capture.rtmpUrl}/${streamKey}`,
          timeoutSeconds: BROADCAST_MAX_SECONDS,
          ffmpegPath,
          chromiumPath: this.config.capture.chromiumPath ?? findChromium(),
          outboundAllow: this.config.outboundAllow,
          trustedOrigins: [new URL(this.config.spaces.baseUrl).origin],
        },
        (report) => this.onReport(broadcast.id, report),
      )
      .catch((err: unknown) => {
        this.endings.delete(broadcast.id);
        throw err;
      });
  }

  stop(broadcastId: string): Promise<void> {
    return this.launcher.stop(broadcastId);
  }

  isRunning(broadcastId: string): boolean {
    return this.launcher.running().includes(broadcastId);
  }

  /** Compositors stop with the service, Pods too: their token's key dies with this process, so none could rejoin. */
  async close(): Promise<void> {
    await Promise.all(this.launcher.running().map((id) => this.launcher.stop(id)));
    await this.launcher.close();
  }

  private onReport(id: string, report: CaptureReport): void {
    if (report.type === 'page_loaded') this.logger.log(`broadcast ${id}: compositor loaded`);
    if (report.type !== 'ended') return;
    const onEnded = this.endings.get(id);
    this.endings.delete(id);
    onEnded?.(report.reason, report.failed);
  }
}

/** The compositor page of the broadcast's space, its layout, size and background in the query. */
export function compositorUrl(baseUrl: string, b: BroadcastEntity, token: string): string {
  const { width, height } = viewportOf(b.resolution);
  const query = new URLSearchParams({ token, layout: b.layout, width: String(width), height: String(height) });
  if (b.background) query.set('background', b.background);
  return `${baseUrl}/spaces/compositor?${query.toString()}`;
}
