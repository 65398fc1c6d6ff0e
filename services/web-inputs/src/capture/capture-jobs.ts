import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CAPTURE_LAUNCHER, CaptureLauncher, CaptureReport, findChromium, viewportOf } from '@platform/capture';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { resolveMediaBinaries } from '@platform/media';
import { WebInputEntity } from '../web-inputs/web-input.entity';
import { WebInputStates } from '../web-inputs/web-input-states';

/**
 * How long past its timeout a job may run before the service stops it itself (the worker's own timer, which
 * starts once the page has loaded, failed): the page's loading budget (three tries of 30 s) and 30 s more.
 */
const TIMEOUT_BACKSTOP_MS = 120_000;

/**
 * The capture job of each launched web input (one at a time per web input, its id the job's): started on
 * launch, told to reload, stopped on shutdown or delete; its end, whatever the cause, makes the web input idle.
 */
@Injectable()
export class CaptureJobs implements OnApplicationShutdown {
  private readonly logger = new Logger('CaptureJobs');
  private readonly backstops = new Map<string, NodeJS.Timeout>();
  /** The idle transition of each job that ended, so a stop can wait for it. */
  private readonly idling = new Map<string, Promise<unknown>>();
  private ffmpegPath: Promise<string> | undefined;

  constructor(
    @Inject(CAPTURE_LAUNCHER) private readonly launcher: CaptureLauncher,
    @Inject(WebInputStates) private readonly states: WebInputStates,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  async start(webInput: WebInputEntity, streamKey: string): Promise<void> {
    const { width, height } = viewportOf(webInput.resolution);
    this.ffmpegPath ??= resolveMediaBinaries(this.config.media).then((b) => b.ffmpeg.path);
    const ffmpegPath = await this.ffmpegPath.catch((err: unknown) => {
      this.ffmpegPath = undefined;
      throw err;
    });
    // set first: an `ended` during the launch clears it
    const backstop = setTimeout(() => void this.stop(webInput.id), webInput.timeout * 1000 + TIMEOUT_BACKSTOP_MS);
    backstop.unref();
    this.backstops.set(webInput.id, backstop);
    const launched = this.launcher.launch(
      {
        jobId: webInput.id,
        url: webInput.url,
        width,
        height,
        fps: this.config.capture.fps,
        rtmpUrl: `${this.config.capture.rtmpUrl}/${streamKey}`,
        timeoutSeconds: webInput.timeout,
        ffmpegPath,
        chromiumPath: this.config.capture.chromiumPath ?? findChromium(),
        outboundAllow: this.config.outboundAllow,
      },
      (report) => this.onReport(webInput.id, report),
    );
    await launched.catch((err: unknown) => {
      this.clearBackstop(webInput.id);
      throw err;
    });
  }

  /**
   * Takes over what a previous run of this service left running (a Pod per job outlives it); their backstop is the
   * Pod's own deadline. Answers their ids.
   */
  adopt(): Promise<string[]> {
    return this.launcher.adopt((id, report) => this.onReport(id, report));
  }

  isRunning(id: string): boolean {
    return this.launcher.running().includes(id);
  }

  reload(id: string): Promise<boolean> {
    return this.launcher.reload(id);
  }

  /** Resolves once the job is gone and the web input idle. */
  async stop(id: string): Promise<void> {
    await this.launcher.stop(id);
    await this.idling.get(id);
  }

  /** Jobs that cannot outlive the service are stopped (their web inputs idle); Pods are left to the next start. */
  async onApplicationShutdown(): Promise<void> {
    for (const id of [...this.backstops.keys()]) this.clearBackstop(id);
    await this.launcher.close();
    await Promise.all(this.idling.values());
  }

  private onReport(id: string, report: CaptureReport): void {
    if (report.type === 'page_loaded') this.logger.log(`web input ${id}: page loaded (load ${report.loads})`);
    if (report.type !== 'ended') return;
    this.clearBackstop(id);
    const idle = this.states
      .toIdle(id, report.reason, report.failed)
      .catch((err: unknown) => this.logger.error(`web input ${id}: ${String(err)}`))
      .finally(() => {
        if (this.idling.get(id) === idle) this.idling.delete(id);
      });
    this.idling.set(id, idle);
  }

  private clearBackstop(id: string): void {
    clearTimeout(this.backstops.get(id));
    this.backstops.delete(id);
  }
}
