import { OutboundGuard } from '@platform/outbound';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { captureVideoKbps, CaptureCommand, CaptureJobSpec, CaptureReport } from '../capture-job';
import { AudioSink, startAudioSink } from './audio-sink';
import { captureEncoderArgs } from './capture-encoder-args';
import { PageBrowser } from './page-browser';
import { podChannel } from './pod-channel';
import { startVirtualDisplay, stopProcess, VirtualDisplay } from './virtual-display';
import { ipcChannel, WorkerChannel } from './worker-channel';

/**
 * One capture job: a display, a sink, a browser showing the page and ffmpeg pushing both to the live stream's
 * RTMP ingest. Run as a child process of the web-inputs service (LocalProcessLauncher), it reports over the IPC
 * channel and takes `reload` and `shutdown` from it, and stops when its parent goes away; run as a Pod
 * (KubernetesPodLauncher), it uses the Pod's files instead (`pod-channel.ts`). It stops by itself after the job's
 * timeout, when the browser or ffmpeg dies, and on SIGTERM. Its last report is `ended`.
 */
class CaptureWorker {
  private display: VirtualDisplay | undefined;
  private sink: AudioSink | undefined;
  private browser: PageBrowser | undefined;
  private encoder: ReturnType<typeof spawn> | undefined;
  private stopping: Promise<void> | undefined;
  private loads = 0;
  private browserGroup: number | undefined;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-'));

  constructor(
    private readonly spec: CaptureJobSpec,
    private readonly channel: WorkerChannel,
  ) {}

  async run(): Promise<void> {
    const { spec } = this;
    this.display = await startVirtualDisplay(spec.width, spec.height);
    this.sink = await startAudioSink(path.join(this.dir, 'pulse'));
    this.browser = await PageBrowser.launch({
      chromiumPath: spec.chromiumPath,
      display: this.display.display,
      pulseServer: this.sink.server,
      sink: this.sink.sink,
      width: spec.width,
      height: spec.height,
      guard: new OutboundGuard(spec.outboundAllow),
      trustedOrigins: spec.trustedOrigins ?? [],
    });
    const browserGroup = PageBrowser.browserGroup();
    if (browserGroup !== undefined) this.report({ type: 'browser', pid: browserGroup });
    this.browserGroup = browserGroup;
    this.browser.onClosed((why) => void this.stop(why, true));
    this.display.process.once('exit', () => void this.stop('the display server exited', true));
    await this.browser.open(spec.url);
    if (this.stopping) return; // shut down while the page loaded
    this.report({ type: 'page_loaded', loads: ++this.loads });
    this.startEncoder();
    setTimeout(() => void this.stop(`the timeout of ${spec.timeoutSeconds} s passed`, false), spec.timeoutSeconds * 1000).unref();
  }

  async command(command: CaptureCommand): Promise<void> {
    if (command.type === 'shutdown') return this.stop('shut down', false);
    // a reload before the first load would cut that navigation short: only once the page is up
    if (command.type === 'reload' && this.browser && this.loads > 0 && !this.stopping) {
      await this.browser.reload();
      this.report({ type: 'page_loaded', loads: ++this.loads });
    }
  }

  private startEncoder(): void {
    const { spec } = this;
    const args = captureEncoderArgs({
      display: this.display!.display,
      width: spec.width,
      height: spec.height,
      fps: spec.fps,
      pulseServer: this.sink!.server,
      sink: this.sink!.sink,
      videoKbps: captureVideoKbps(spec.width, spec.height),
      rtmpUrl: spec.rtmpUrl,
    });
    const encoder = spawn(spec.ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.encoder = encoder;
    encoder.once('error', (err) => void this.stop(`the encoder could not start: ${err.message}`, true));
    let stderr = '';
    let encoding = false;
    encoder.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    encoder.stdout.on('data', (c: Buffer) => {
      if (!encoding && /out_time_us=[1-9]/.test(c.toString())) {
        encoding = true;
        this.report({ type: 'encoding' });
      }
    });
    encoder.once('exit', (code, signal) => void this.stop(`the encoder exited (${signal ?? code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`, true));
  }

  /** Ends the job once: ffmpeg first (SIGINT writes the FLV trailer and closes the RTMP session), then the rest. */
  stop(reason: string, failed: boolean): Promise<void> {
    this.stopping ??= (async () => {
      // the last word is said whatever the clean-up meets (a profile Chromium still writes to)
      await this.cleanUp().catch((err: unknown) => process.stderr.write(`capture worker clean-up: ${err instanceof Error ? err.message : String(err)}\n`));
      this.channel.end({ type: 'ended', reason, failed });
    })();
    return this.stopping;
  }

  private async cleanUp(): Promise<void> {
    if (this.encoder) await stopProcess(this.encoder, 'SIGINT', 10_000);
    await this.browser?.close();
    killGroup(this.browserGroup);
    this.browser?.removeProfile();
    await this.sink?.stop();
    await this.display?.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  report(report: CaptureReport): void {
    this.channel.report(report);
  }
}

function killGroup(group: number | undefined): void {
  if (group === undefined) return;
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // gone already
  }
}

function main(): void {
  const spec = JSON.parse(process.env.CAPTURE_JOB ?? '{}') as CaptureJobSpec;
  // forked with an IPC channel by the LocalProcessLauncher; in a Pod there is none
  const channel = process.send ? ipcChannel() : podChannel();
  const worker = new CaptureWorker(spec, channel);
  channel.onCommand((command) => void worker.command(command).catch(() => undefined));
  channel.onLauncherGone((why) => void worker.stop(why, true));
  // a Pod's deletion (or a local stop's fallback)
  process.on('SIGTERM', () => void worker.stop('stopped (SIGTERM)', false));
  worker.run().catch((err: unknown) => void worker.stop(err instanceof Error ? err.message : String(err), true));
}

main();
