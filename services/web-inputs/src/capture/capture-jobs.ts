import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { resolveMediaBinaries } from '@platform/media';
import fs from 'node:fs';
import path from 'node:path';
import { WebInputEntity } from '../web-inputs/web-input.entity';
import { viewportOf } from '../web-inputs/web-input-fields';
import { WebInputStates } from '../web-inputs/web-input-states';
import { CAPTURE_LAUNCHER, CaptureLauncher } from './capture-launcher';
import { CaptureReport } from './capture-job';

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
    this.launcher.launch(
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
    const backstop = setTimeout(() => void this.stop(webInput.id), webInput.timeout * 1000 + TIMEOUT_BACKSTOP_MS);
    backstop.unref();
    this.backstops.set(webInput.id, backstop);
  }

  isRunning(id: string): boolean {
    return this.launcher.running().includes(id);
  }

  reload(id: string): boolean {
    return this.launcher.reload(id);
  }

  /** Resolves once the job is gone and the web input idle. */
  async stop(id: string): Promise<void> {
    await this.launcher.stop(id);
    await this.idling.get(id);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.launcher.running().map((id) => this.stop(id)));
  }

  private onReport(id: string, report: CaptureReport): void {
    if (report.type === 'page_loaded') this.logger.log(`web input ${id}: page loaded (load ${report.loads})`);
    if (report.type !== 'ended') return;
    clearTimeout(this.backstops.get(id));
    this.backstops.delete(id);
    const idle = this.states
      .toIdle(id, report.reason, report.failed)
      .catch((err: unknown) => this.logger.error(`web input ${id}: ${String(err)}`))
      .finally(() => {
        if (this.idling.get(id) === idle) this.idling.delete(id);
      });
    this.idling.set(id, idle);
  }
}

/** The first Chromium on PATH (Debian's `chromium`, or another distribution's name for it). */
export function findChromium(searchPath = process.env.PATH ?? ''): string {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of searchPath.split(path.delimiter)) {
      const candidate = path.join(dir, name);
      if (dir && fs.existsSync(candidate)) return candidate;
    }
  }
  return 'chromium';
}
