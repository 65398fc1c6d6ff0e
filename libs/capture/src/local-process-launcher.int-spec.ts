import { freePort } from '@platform/testing';
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findChromium } from './find-chromium';
import { CaptureJobSpec, CaptureReport } from './capture-job';
import { CAPTURE_WORKER_SCRIPT, LocalProcessLauncher } from './local-process-launcher';

/**
 * The real capture worker (Xvfb, a private PulseAudio, Chromium, ffmpeg), run by the LocalProcessLauncher,
 * pushing to an RTMP listener (ffmpeg) that records what arrives. The page is red with a 1 kHz tone on its
 * first load and blue after a reload; the recording is read back with ffmpeg.
 */
const ROOT = path.resolve(__dirname, '../../..');
const tool = (script: string) => execFileSync('bash', [path.join(ROOT, 'scripts/infra', script)], { encoding: 'utf8' }).trim();
const PAGE = `<!doctype html><html><body style="margin:0">
<script>
  const loads = Number(sessionStorage.getItem('loads') || 0) + 1;
  sessionStorage.setItem('loads', String(loads));
  document.body.style.background = loads === 1 ? '#ff0000' : '#0000ff';
  const ctx = new AudioContext();
  const osc = ctx.createOscillator();
  osc.frequency.value = 1000;
  osc.connect(ctx.destination);
  osc.start();
</script></body></html>`;

jest.setTimeout(120_000);

describe('LocalProcessLauncher with the real capture worker', () => {
  let ffmpeg: string;
  let server: http.Server;
  let pageUrl: string;
  let dir: string;
  const launcher = new LocalProcessLauncher();

  beforeAll(async () => {
    expect(fs.existsSync(CAPTURE_WORKER_SCRIPT)).toBe(true); // built by `npm run build`
    tool('capture.sh');
    tool('chromium.sh');
    ffmpeg = tool('ffmpeg.sh');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-it-'));
    server = http.createServer((req, res) => {
      if (req.url === '/missing') return void res.writeHead(404).end('gone');
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
  });
  afterAll(async () => {
    await Promise.all(launcher.running().map((id) => launcher.stop(id)));
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** An RTMP server that records the one session it gets into `file`. */
  const receiver = async (file: string): Promise<{ url: string; done: Promise<void>; process: ChildProcess }> => {
    const port = await freePort();
    const child = spawn(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-i', `rtmp://127.0.0.1:${port}/app/key`, '-c', 'copy', '-y', file], {
      stdio: 'ignore',
    });
    await new Promise((r) => setTimeout(r, 500));
    return { url: `rtmp://127.0.0.1:${port}/app/key`, process: child, done: new Promise((r) => child.once('exit', () => r())) };
  };

  const spec = (jobId: string, rtmpUrl: string, extra: Partial<CaptureJobSpec> = {}): CaptureJobSpec => ({
    jobId,
    url: pageUrl,
    width: 720,
    height: 720,
    fps: 15,
    rtmpUrl,
    timeoutSeconds: 60,
    ffmpegPath: ffmpeg,
    chromiumPath: findChromium(),
    outboundAllow: 'loopback',
    ...extra,
  });

  const reportsOf = (jobId: string, rtmpUrl: string, extra: Partial<CaptureJobSpec> = {}) => {
    const reports: CaptureReport[] = [];
    const ended = new Promise<Extract<CaptureReport, { type: 'ended' }>>((resolve, reject) => {
      launcher
        .launch(spec(jobId, rtmpUrl, extra), (report) => {
          reports.push(report);
          if (report.type === 'ended') resolve(report);
        })
        .catch(reject);
    });
    const until = async (type: CaptureReport['type'], count = 1) => {
      const deadline = Date.now() + 60_000;
      while (reports.filter((r) => r.type === type).length < count) {
        if (Date.now() > deadline) throw new Error(`no ${type} report; got ${JSON.stringify(reports)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    return { reports, ended, until };
  };

  /** The mean RGB of a small patch at the frame's centre, `at` seconds in. */
  const colourAt = (file: string, at: number): number[] => {
    const raw = execFileSync(ffmpeg, [
      '-v',
      'error',
      '-ss',
      String(at),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      'crop=16:16:352:352,scale=1:1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ]);
    return [...raw.subarray(0, 3)];
  };

  it('streams the page (picture and sound) and shows a reload on the stream without dropping the session', async () => {
    const file = path.join(dir, 'reload.flv');
    const rtmp = await receiver(file);
    const job = reportsOf('reload-job', rtmp.url);
    await job.until('encoding');
    expect(job.reports[0]).toEqual({ type: 'page_loaded', loads: 1 });
    await new Promise((r) => setTimeout(r, 3000));
    expect(await launcher.reload('reload-job')).toBe(true);
    await job.until('page_loaded', 2);
    await new Promise((r) => setTimeout(r, 3000));
    await launcher.stop('reload-job');
    expect(await job.ended).toEqual({ type: 'ended', reason: 'shut down', failed: false });
    await rtmp.done; // one RTMP session from start to end: the receiver only takes one
    expect(launcher.running()).toEqual([]);

    const probe = JSON.parse(
      execFileSync(
        path.join(path.dirname(ffmpeg), 'ffprobe'),
        ['-v', 'error', '-show_entries', 'stream=codec_name,width,height,sample_rate', '-show_entries', 'format=duration', '-of', 'json', file],
        {
          encoding: 'utf8',
        },
      ),
    ) as { streams: Array<{ codec_name: string; width?: number; height?: number; sample_rate?: string }>; format: { duration: string } };
    expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(probe.streams.find((s) => s.codec_name === 'h264')).toMatchObject({ width: 720, height: 720 });
    const duration = Number(probe.format.duration);
    expect(duration).toBeGreaterThan(5);
    const [first, last] = [colourAt(file, 1), colourAt(file, duration - 0.5)];
    expect({ red: first[0] > 200 && first[2] < 60, blue: last[2] > 200 && last[0] < 60 }).toEqual({ red: true, blue: true });
    // the page's 1 kHz tone, through a band around it
    const detect = spawnSync(ffmpeg, ['-hide_banner', '-i', file, '-vn', '-af', 'highpass=f=900,lowpass=f=1100,volumedetect', '-f', 'null', '-'], {
      encoding: 'utf8',
    });
    const meanVolume = Number(/mean_volume: (-?[\d.]+) dB/.exec(detect.stderr)?.[1] ?? -200);
    expect(meanVolume).toBeGreaterThan(-30);
  });

  it('stops by itself at its timeout', async () => {
    const rtmp = await receiver(path.join(dir, 'timeout.flv'));
    const started = Date.now();
    const job = reportsOf('timeout-job', rtmp.url, { timeoutSeconds: 4 });
    const ended = await job.ended;
    expect(ended).toEqual({ type: 'ended', reason: 'the timeout of 4 s passed', failed: false });
    expect(Date.now() - started).toBeLessThan(30_000);
    await rtmp.done;
  });

  it('fails a page that answers 404, with the reason', async () => {
    const job = reportsOf('missing-job', 'rtmp://127.0.0.1:9/app/key', { url: pageUrl.replace('/page', '/missing') });
    const ended = await job.ended;
    expect(ended).toEqual({ type: 'ended', reason: expect.stringContaining('the page answered HTTP 404') as string, failed: true });
    expect(job.reports.filter((r) => r.type === 'page_loaded')).toEqual([]);
  });
});
